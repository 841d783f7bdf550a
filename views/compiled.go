package views

import (
	"bytes"
	"encoding/json"
	"github.com/oastui/oastui/present"
	"strings"
)

// CompiledText is the Compiled tab: CompiledAgentOas as numbered JSON.
type CompiledText struct{ Text }

// NewCompiledText is an empty Compiled tab with line numbers.
func NewCompiledText() *CompiledText {
	c := &CompiledText{}
	c.SetNumbered(true)
	return c
}

// Name is the tab's title.
func (t *CompiledText) Name() string { return "Compiled" }

// Show takes the compiled output of the newest good analysis. When the
// compile gate refuses it (a deterministic blocker), the refusal comes
// first, as `oastui compile` prints it, and the output under it is marked
// not publishable.
func (t *CompiledText) Show(sh Shown) {
	g, th := sh.LastParsed, sh.Theme
	if g == nil {
		t.SetLines([]string{th.Dim.Render(NoGraphNote)})
		return
	}
	lines, err := []string(nil), g.CompileErr
	if g.Compiled != nil {
		lines, err = CompiledLines(g.Compiled)
	}
	if err != nil {
		lines = []string{th.Blocker.Render("not compiled: " + present.Text(err.Error()))}
	}
	if len(sh.Refusal) > 0 {
		lines = append(RefusalLines(th, sh.Refusal), lines...)
	}
	t.SetLines(lines)
}

// RefusalLines are the Compiled tab's lines for a gate refusal: a heading
// in words, the review_blocked document (indented), and the heading of
// the output below it.
func RefusalLines(th Theme, refusal []byte) []string {
	var res struct {
		Blockers []json.RawMessage `json:"blockers"`
	}
	_ = json.Unmarshal(refusal, &res)
	out := []string{
		th.Blocker.Render("✖ compile refused: " + Count(len(res.Blockers), "blocker")),
		th.Dim.Render("fix them to publish; oastui compile prints:"),
	}
	var b bytes.Buffer
	if json.Indent(&b, refusal, "", "  ") != nil {
		b.Reset()
		b.Write(refusal)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		out = append(out, present.Text(l))
	}
	return append(out, "", th.StatusStale.Render("── last compiled output · not publishable ──"))
}

// NoGraphNote is shown in the graph and the Compiled tab until an analysis
// parses.
const NoGraphNote = "no graph yet: the agent does not load or its flow file does not parse (see Findings)"

// ShowsLastParsed: the output is that of the newest good analysis.
func (t *CompiledText) ShowsLastParsed() {}
