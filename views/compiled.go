package views

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/present"
)

// CompiledText is the Compiled tab: CompiledAgentOas as numbered JSON.
type CompiledText struct {
	Text

	// fullBuild makes Show build and present every line at once, as it
	// did before the lines were built when first shown and presented
	// when scrolled into view: the tests' oracle.
	fullBuild bool
}

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
// not publishable. The lines are built when the tab first needs them,
// once per snapshot, and each is presented (present.Text) when it comes
// into view: a snapshot costs nothing until the tab is shown, a frame
// what its window shows.
func (t *CompiledText) Show(sh Shown) {
	g, th, refusal := sh.LastParsed, sh.Theme, sh.Refusal
	if g == nil {
		t.SetLines([]string{th.Dim.Render(NoGraphNote)})
		return
	}
	if t.fullBuild {
		t.SetLines(compiledTabLines(th, g, refusal))
		return
	}
	t.setLinesLater(func() ([]string, []bool) {
		var lines []string
		var raw []bool
		err := g.CompileErr
		if g.Compiled != nil {
			lines, err = compiledRaw(g.Compiled)
			raw = make([]bool, len(lines))
			for i := range raw {
				raw[i] = true
			}
		}
		if err != nil {
			lines, raw = []string{th.Blocker.Render("not compiled: " + present.Text(err.Error()))}, []bool{false}
		}
		if len(refusal) > 0 {
			// The count is the engine's: Refusal is LastParsed's gate
			// response, one entry per blocker of the gate.
			rl, rr := refusalRaw(th, refusal, len(g.Gate().Blockers))
			lines, raw = append(rl, lines...), append(rr, raw...)
		}
		return lines, raw
	})
}

// compiledTabLines are the tab's lines built and presented at once (the
// oracle of Show).
func compiledTabLines(th Theme, g *analysis.Snapshot, refusal []byte) []string {
	lines, err := []string(nil), g.CompileErr
	if g.Compiled != nil {
		lines, err = CompiledLines(g.Compiled)
	}
	if err != nil {
		lines = []string{th.Blocker.Render("not compiled: " + present.Text(err.Error()))}
	}
	if len(refusal) > 0 {
		lines = append(RefusalLines(th, refusal), lines...)
	}
	return lines
}

// RefusalLines are the Compiled tab's lines for a gate refusal: a heading
// in words, the review_blocked document (indented), and the heading of
// the output below it.
func RefusalLines(th Theme, refusal []byte) []string {
	var res struct {
		Blockers []json.RawMessage `json:"blockers"`
	}
	_ = json.Unmarshal(refusal, &res)
	lines, raw := refusalRaw(th, refusal, len(res.Blockers))
	for i, r := range raw {
		if r {
			lines[i] = present.Text(lines[i])
		}
	}
	return lines
}

// refusalRaw is RefusalLines with the document's lines not yet presented
// (raw[i] marks them), for a refusal of n blockers.
func refusalRaw(th Theme, refusal []byte, n int) (lines []string, raw []bool) {
	out := []string{
		th.Blocker.Render("✖ compile refused: " + Count(n, "blocker")),
		th.Dim.Render("fix them to publish; oastui compile prints:"),
	}
	var b bytes.Buffer
	if json.Indent(&b, refusal, "", "  ") != nil {
		b.Reset()
		b.Write(refusal)
	}
	doc := strings.Split(b.String(), "\n")
	raw = make([]bool, len(out), len(out)+len(doc)+2)
	out = append(out, doc...)
	for range doc {
		raw = append(raw, true)
	}
	out = append(out, "", th.StatusStale.Render("── last compiled output · not publishable ──"))
	return out, append(raw, false, false)
}

// NoGraphNote is shown in the graph and the Compiled tab until an analysis
// parses.
const NoGraphNote = "no graph yet: the agent does not load or its flow file does not parse (see Findings)"

// ShowsLastParsed: the output is that of the newest good analysis.
func (t *CompiledText) ShowsLastParsed() {}
