package tui

import (
	"errors"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/oastui/oastui/views"
)

// PickerConfig is what `oastui pick` shows: one slot's candidates.
type PickerConfig = views.PickerConfig

// PickerResult is the picker's outcome: cancelled, or the userResponse
// envelope confirmed.
type PickerResult = views.PickerDoneMsg

// ErrNoTerminal: the picker was asked for without a terminal to draw on.
var ErrNoTerminal = errors.New("the picker needs a terminal")

// Pick runs the context picker full screen (`oastui pick`). It draws on
// stdout when that is a terminal, else on the controlling terminal, so
// that the envelope can go to a pipe.
func Pick(cfg PickerConfig, stdout io.Writer) (*PickerResult, error) {
	opts := []tea.ProgramOption{}
	if f, ok := stdout.(*os.File); !ok || !term.IsTerminal(f.Fd()) {
		_, tty, err := tea.OpenTTY()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoTerminal, err)
		}
		defer tty.Close()
		opts = append(opts, tea.WithOutput(tty))
	}
	m, err := tea.NewProgram(views.NewPickerApp(cfg), opts...).Run()
	if err != nil {
		return nil, err
	}
	app, ok := m.(views.PickerApp)
	if !ok {
		return nil, fmt.Errorf("unexpected final model %T", m)
	}
	return app.Result, nil
}
