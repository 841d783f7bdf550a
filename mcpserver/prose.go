package mcpserver

import (
	"errors"
	"fmt"
	"strings"
)

// prose is an error whose words are ours (format) with values in them
// (args: paths a client named, ids, names from the agent). It is shown
// with each value masked on its own, never our words: the masker judges
// "passwd: outside" as a password assignment and made the refusal of
// /etc/passwd read "/etc/passwd: ou…7 the workspace roots".
type prose struct {
	format string
	args   []any
}

// proseErr is fmt.Errorf for an error the tools present as prose (%w
// wraps an error, as in fmt.Errorf).
func proseErr(format string, args ...any) error {
	return &prose{format: format, args: args}
}

func (e *prose) Error() string { return fmt.Errorf(e.format, e.args...).Error() }

func (e *prose) Unwrap() []error {
	var out []error
	for _, a := range e.args {
		if err, ok := a.(error); ok {
			out = append(out, err)
		}
	}
	return out
}

// present is the text with mask applied to each value alone: a string, an
// error that is not ours (its whole text is a value: an fs error names a
// path) or any other value's text. Our sentinels (ErrOutsideRoots) and
// nested prose keep their words.
func (e *prose) present(mask func(string) string) string {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		switch v := a.(type) {
		case *prose:
			args[i] = v.present(mask)
		case error:
			if v == ErrOutsideRoots {
				args[i] = v.Error()
			} else {
				args[i] = mask(v.Error())
			}
		case string:
			args[i] = mask(v)
		case fmt.Stringer:
			args[i] = mask(v.String())
		default:
			args[i] = a // numbers, bools: no secret, no escape
		}
	}
	return fmt.Sprintf(strings.ReplaceAll(e.format, "%w", "%v"), args...)
}

// presentError is an error's text for a client: prose with its values
// masked, any other error masked whole.
func presentError(err error, mask func(string) string) string {
	var p *prose
	if errors.As(err, &p) && p == err {
		return p.present(mask)
	}
	return mask(err.Error())
}
