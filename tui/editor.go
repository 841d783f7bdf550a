package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// EditorArgs is the argv that opens file at line and column in the user's
// editor ($VISUAL, then $EDITOR, then vi), with the argument form
// each editor understands:
//
//	vi, vim, nvim, nano, micro, kak:   +LINE FILE      (nano: +LINE,COL)
//	emacs, emacsclient:                +LINE:COL FILE
//	code, codium, cursor, windsurf:    -g FILE:LINE:COL
//	subl, zed, hx, helix:              FILE:LINE:COL
//	anything else:                     +LINE FILE (the convention most editors accept)
//
// Arguments already in the variable (code --wait) are kept.
func EditorArgs(getenv func(string) string, file string, line, col int) []string {
	if getenv == nil {
		getenv = os.Getenv
	}
	ed := strings.TrimSpace(getenv("VISUAL"))
	if ed == "" {
		ed = strings.TrimSpace(getenv("EDITOR"))
	}
	if ed == "" {
		ed = "vi"
	}
	argv := strings.Fields(ed)
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	name := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	switch name {
	case "vi", "vim", "nvim", "gvim", "mvim", "view", "micro", "kak", "vim.tiny", "vim.basic":
		return append(argv, fmt.Sprintf("+%d", line), file)
	case "nano", "pico":
		return append(argv, fmt.Sprintf("+%d,%d", line, col), file)
	case "emacs", "emacsclient":
		return append(argv, fmt.Sprintf("+%d:%d", line, col), file)
	case "code", "code-insiders", "codium", "vscodium", "cursor", "windsurf":
		return append(argv, "-g", fmt.Sprintf("%s:%d:%d", file, line, col))
	case "subl", "sublime_text", "zed", "hx", "helix":
		return append(argv, fmt.Sprintf("%s:%d:%d", file, line, col))
	}
	return append(argv, fmt.Sprintf("+%d", line), file)
}

// EditorMissing is the message for an editor command that cannot be run
// (not installed, not on PATH), or "" when it can.
func EditorMissing(argv []string) string {
	if _, err := exec.LookPath(argv[0]); err != nil {
		return fmt.Sprintf("editor %q not found: set $VISUAL or $EDITOR to an installed editor (e.g. EDITOR=nano)", argv[0])
	}
	return ""
}
