package report

// The palette and escapes lint's formats use, exported for the other
// reports of the engine (oastui diff's text and GitHub formats), so that
// every face paints a level and escapes a workflow command the same way.

// Styles of the text formats (ANSI SGR sequences).
const (
	StyleReset  = txtReset
	StyleBold   = txtBold
	StyleDim    = txtDim
	StyleRed    = txtRed    // blockers, breaking changes, removed words
	StyleYellow = txtYellow // warnings
	StyleCyan   = txtCyan   // suggestions, info
	StyleGreen  = txtGreen  // added words
)

// Paint wraps s in style when on (a terminal without NO_COLOR).
func Paint(on bool, style, s string) string {
	if !on || style == "" {
		return s
	}
	return style + s + txtReset
}

// GitHubData escapes a workflow command's message (lines cleaned of
// invisible characters, % CR LF encoded).
func GitHubData(s string) string { return githubData(s) }

// GitHubProperty escapes a workflow command's property value (also : and ,).
func GitHubProperty(s string) string { return githubProperty(s) }
