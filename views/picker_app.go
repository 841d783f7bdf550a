package views

import tea "charm.land/bubbletea/v2"

// PickerApp runs a Picker as a whole program (`oastui pick`): full screen,
// theme following the terminal background, quitting when the picker is
// done. Result holds the outcome after the program ends.
type PickerApp struct {
	Picker Picker
	Theme  Theme
	Result *PickerDoneMsg
}

// NewPickerApp wraps a picker over cfg, starting with the dark theme.
func NewPickerApp(cfg PickerConfig) PickerApp {
	return PickerApp{Picker: NewPicker(cfg), Theme: NewTheme(true)}
}

// Init asks for the background colour; nothing waits for the answer.
func (a PickerApp) Init() tea.Cmd { return tea.RequestBackgroundColor }

// Update implements tea.Model.
func (a PickerApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		a.Theme = NewTheme(msg.IsDark())
		return a, nil
	case PickerDoneMsg:
		a.Result = &msg
		return a, tea.Quit
	}
	var cmd tea.Cmd
	a.Picker, cmd = a.Picker.Update(msg)
	return a, cmd
}

// View implements tea.Model.
func (a PickerApp) View() tea.View {
	v := tea.NewView(a.Picker.View(a.Theme))
	v.AltScreen = true
	return v
}
