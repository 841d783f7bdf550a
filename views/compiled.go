package views

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

// Show takes the compiled output of the newest good analysis.
func (t *CompiledText) Show(sh Shown) {
	g, th := sh.Good, sh.Theme
	if g == nil {
		t.SetLines([]string{th.Dim.Render(NoGraphNote)})
		return
	}
	lines, err := []string(nil), g.CompileErr
	if g.Compiled != nil {
		lines, err = CompiledLines(g.Compiled)
	}
	if err != nil {
		lines = []string{th.Blocker.Render("not compiled: " + Clean(err.Error()))}
	}
	t.SetLines(lines)
}

// NoGraphNote is shown in the graph and the Compiled tab until an analysis
// parses.
const NoGraphNote = "no graph yet: the agent does not load or its flow file does not parse (see Findings)"
