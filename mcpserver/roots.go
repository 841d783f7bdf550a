package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrOutsideRoots is the refusal of a path that resolves (symlinks
// followed) outside every workspace root.
var ErrOutsideRoots = errors.New("outside the workspace roots")

// Roots are the directories a client may name files in: absolute, with
// symlinks resolved, so that a path is inside when its own resolved form
// lies below one of them.
type Roots struct {
	Dirs []string
}

// NewRoots resolves dirs (relative ones against the working directory);
// a directory that does not exist is an error.
func NewRoots(dirs []string) (Roots, error) {
	var r Roots
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return Roots{}, err
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return Roots{}, fmt.Errorf("root %s: %w", d, err)
		}
		st, err := os.Stat(real)
		if err != nil {
			return Roots{}, fmt.Errorf("root %s: %w", d, err)
		}
		if !st.IsDir() {
			return Roots{}, fmt.Errorf("root %s: not a directory", d)
		}
		r.Dirs = append(r.Dirs, real)
	}
	return r, nil
}

// Resolve turns a path the client gave into the real path to read: a
// relative path is taken against the first root; symlinks are resolved
// (the part of the path that does not exist yet, e.g. an unsaved buffer,
// is kept as written: it cannot be a symlink). A path whose real form is
// not inside a root is refused with ErrOutsideRoots.
func (r Roots) Resolve(p string) (string, error) {
	if len(r.Dirs) == 0 {
		return "", proseErr("%s: %w (there are none)", p, ErrOutsideRoots)
	}
	if p == "" {
		return "", errors.New("path is empty")
	}
	if strings.ContainsRune(p, 0) {
		return "", errors.New("path holds a NUL byte")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.Dirs[0], p)
	}
	real, err := evalExisting(filepath.Clean(p))
	if err != nil {
		return "", err
	}
	if !r.Contains(real) {
		return "", proseErr("%s: %w (%s)", p, ErrOutsideRoots, strings.Join(r.Dirs, ", "))
	}
	return real, nil
}

// Contains reports whether the real path p lies in (or is) one of the roots.
func (r Roots) Contains(p string) bool {
	for _, d := range r.Dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// ContainsFile is Contains for a path that may not be resolved yet (a
// file a fix edits, a catalog the engine is about to read).
func (r Roots) ContainsFile(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	real, err := evalExisting(abs)
	return err == nil && r.Contains(real)
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// evalExisting resolves the symlinks of the longest existing prefix of the
// absolute, clean path p and appends the rest unchanged.
func evalExisting(p string) (string, error) {
	rest := ""
	cur := p
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			if rest == "" {
				return real, nil
			}
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// rootsTimeout bounds the roots/list request a tool call makes.
const rootsTimeout = 5 * time.Second

// clientRoots asks the client for its roots (roots/list) when it declared
// the roots capability on a protocol that lets a server ask (before
// 2026-07-28, where roots were deprecated). ok is false when it cannot or
// did not answer with a usable list: the server's own roots apply then.
func clientRoots(ctx context.Context, ss *mcp.ServerSession) (Roots, bool) {
	if ss == nil {
		return Roots{}, false
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.RootsV2 == nil || ip.ProtocolVersion >= "2026-07-28" {
		return Roots{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, rootsTimeout)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil || res == nil {
		return Roots{}, false
	}
	var dirs []string
	for _, root := range res.Roots {
		if root == nil {
			continue
		}
		u, err := url.Parse(root.URI)
		if err != nil || u.Scheme != "file" || u.Path == "" {
			continue
		}
		up := u.Path
		if runtime.GOOS == "windows" && len(up) >= 3 && up[0] == '/' && up[2] == ':' {
			up = up[1:] // file:///C:/dir
		}
		p := filepath.Clean(filepath.FromSlash(up))
		if !filepath.IsAbs(p) {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			if st, err := os.Stat(real); err == nil && st.IsDir() {
				dirs = append(dirs, real)
			}
		}
	}
	// A client that lists roots confines to them, even when none of them
	// is a usable directory (then every path is refused); an empty list
	// leaves the server's roots in force.
	return Roots{Dirs: dirs}, len(res.Roots) > 0
}

// Relative rewrites, in a text of a result, every path inside the first
// root (the root relative input paths are taken against) relative to it:
// "/work/repo/agents/a/cinatra/oas.json" becomes "agents/a/cinatra/oas.json"
// (the root itself, as an error message lists the roots, stays as it is),
// and a unified diff's headers ("--- a/work/repo/x",
// "rename from work/repo/x") name "a/x" and "x", as `oastui lint --diff`
// run in the root names them. A path is rewritten only where it starts
// (at the start of the text or after a space, quote, bracket, colon,
// comma or equals sign), so a longer path that merely contains the root's
// spelling keeps it. Paths in other roots stay absolute: as input, a
// relative path would name a file of the first root.
func (r Roots) Relative(s string) string {
	if len(r.Dirs) == 0 || s == "" {
		return s
	}
	root := r.Dirs[0]
	if root == string(filepath.Separator) || !strings.Contains(s, root) {
		return s
	}
	sep := string(filepath.Separator)
	bare := strings.TrimPrefix(filepath.ToSlash(root), "/") + "/" // as a diff header spells it, after a/ or b/
	var b strings.Builder
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], root)
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		j += i
		end := j + len(root)
		b.WriteString(s[i:j])
		switch {
		case !pathStart(s, j):
			b.WriteString(root)
		case strings.HasPrefix(s[end:], sep):
			end += len(sep)
		default:
			// the root itself (as the refusals list it) stays as it is;
			// /work/repository is not in /work/repo
			b.WriteString(root)
		}
		i = end
	}
	out := b.String()
	if strings.Contains(out, bare) {
		out = diffHeaders(bare).Replace(out)
	}
	return out
}

func diffHeaders(bare string) *strings.Replacer {
	return strings.NewReplacer("--- a/"+bare, "--- a/", "+++ b/"+bare, "+++ b/", "diff --git a/"+bare, "diff --git a/",
		" b/"+bare, " b/", "rename from "+bare, "rename from ", "rename to "+bare, "rename to ")
}

// pathStart: an absolute path may start at s[j].
func pathStart(s string, j int) bool {
	return j == 0 || pathEnd(s[j-1])
}

// pathEnd: c ends (or precedes) a path in a message, an id or JSON.
func pathEnd(c byte) bool {
	return strings.IndexByte(" \t\n\r\"'`([{<:,;=)]}>", c) >= 0
}
