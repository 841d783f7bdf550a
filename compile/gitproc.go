package compile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// How oastui runs git (issue 35). git reads repositories written by
// whoever opened the pull request, so on these read paths it is an input
// parser, never a tool acting on the repository's configuration:
//
//   - every call has a deadline (GitTimeout) and a bound on what it may
//     print (gitMaxOutput), and runs in its own process group, killed
//     whole when the call ends, so that no git (nor a child it started)
//     outlives the call;
//   - the -c options and environment of gitHardening keep git from running
//     programs the repository's config names: no pager, no signature
//     verification (gpg.program), no fsmonitor, no hooks, no transport at
//     all (ext::, file://, ssh…: a partial clone's lazy fetch through its
//     promisor remote fails instead of running anything), no prompts;
//   - before the first call, checkGitDir refuses a repository whose .git
//     (or a file its config includes) holds a FIFO, socket or device:
//     git would block on it for ever.

// GitTimeout is the deadline of one git call (one command, or one request
// to the long-lived cat-file process).
const GitTimeout = 10 * time.Second

// gitMaxOutput bounds what one git command may print (a log, a rev-parse).
const gitMaxOutput = 16 << 20

// ErrGitSpecialFile is the error (wrapped) for a repository whose .git
// holds a special file (FIFO, socket, device).
var ErrGitSpecialFile = errors.New("special file in the git repository")

// gitConfigArgs are the -c options every git call gets: they override the
// repository's config.
var gitConfigArgs = []string{
	"--no-pager",
	"-c", "core.pager=cat",
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=" + os.DevNull,
	"-c", "core.untrackedCache=false",
	"-c", "core.sshCommand=false",
	"-c", "core.askPass=false",
	"-c", "credential.helper=",
	"-c", "log.showSignature=false",
	"-c", "gpg.program=false",
	"-c", "gpg.ssh.program=false",
	"-c", "gpg.x509.program=false",
	"-c", "diff.external=",
	"-c", "maintenance.auto=false",
	"-c", "gc.auto=0",
	"-c", "fetch.recurseSubmodules=false",
	"-c", "protocol.allow=never",
	"-c", "protocol.ext.allow=never",
	"-c", "protocol.file.allow=never",
	"-c", "protocol.git.allow=never",
	"-c", "protocol.ssh.allow=never",
	"-c", "protocol.http.allow=never",
	"-c", "protocol.https.allow=never",
}

// gitEnv is the environment of every git call: the user's, with what
// keeps git from prompting, paging, fetching or taking optional locks.
func gitEnv() []string {
	env := os.Environ()
	kept := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_PAGER", "PAGER", "GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS",
			"GIT_ALLOW_PROTOCOL", "GIT_NO_LAZY_FETCH", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS", "GIT_TRACE":
			continue
		}
		kept = append(kept, kv)
	}
	return append(kept,
		"GIT_NO_LAZY_FETCH=1",                // git ≥ 2.44: no promisor fetch at all
		"GIT_ALLOW_PROTOCOL=oastui-no-fetch", // every transport refused, whatever the config says
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_PAGER=cat",
		"PAGER=cat",
	)
}

// gitArgv is git's argument list for a call in dir.
func gitArgv(dir string, args ...string) []string {
	argv := make([]string, 0, len(gitConfigArgs)+len(args)+2)
	argv = append(argv, "-C", dir)
	argv = append(argv, gitConfigArgs...)
	return append(argv, args...)
}

// newGitCmd is a git command in dir with the hardening, in its own process
// group (killed whole by killGroup).
func newGitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", gitArgv(dir, args...)...)
	cmd.Env = gitEnv()
	cmd.Stdin = nil
	setProcessGroup(cmd)
	return cmd
}

// limitedBuffer keeps at most max bytes and says when more came.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		b.over = true
		return 0, errTooMuchOutput
	}
	return b.Buffer.Write(p)
}

var errTooMuchOutput = errors.New("git printed more than oastui reads")

// gitCmd runs git in dir (with the hardening) and returns its stdout,
// within GitTimeout and gitMaxOutput; a failure carries git's stderr.
func gitCmd(dir string, args ...string) ([]byte, error) {
	return gitCmdLimit(dir, gitMaxOutput, args...)
}

func gitCmdLimit(dir string, max int, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	cmd := newGitCmd(dir, args...)
	stdout := &limitedBuffer{max: max}
	stderr := &limitedBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(cmd)
		<-done
		err = fmt.Errorf("git %s did not finish within %s", firstArg(args), GitTimeout)
	}
	killGroup(cmd) // a child git started (a fetch, a filter) dies with it
	if stdout.over {
		return nil, fmt.Errorf("git %s: %w (%d bytes)", firstArg(args), errTooMuchOutput, max)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.Bytes(), errors.New(msg)
	}
	return stdout.Bytes(), nil
}

func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// gitScanBudget bounds checkGitDir: entries and time (a repository larger
// than this is left to the deadline of the calls).
const (
	gitScanMaxEntries = 500_000
	gitScanMaxTime    = 2 * time.Second
)

// checkGitDir finds the git directory of the work tree around dir (a
// .git directory, or the one a .git file names, and its common
// directory) and refuses it when it, or a file an include of its config
// names, holds a special file: git blocks on a FIFO for ever. No git runs
// before this check.
func checkGitDir(dir string) error {
	gitDirs := findGitDirs(dir)
	deadline := time.Now().Add(gitScanMaxTime)
	n := 0
	for _, gd := range gitDirs {
		err := filepath.WalkDir(gd, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: git says so itself
			}
			n++
			if n > gitScanMaxEntries || time.Now().After(deadline) {
				return filepath.SkipAll
			}
			t := d.Type()
			switch {
			case t.IsDir() || t.IsRegular():
				return nil
			case t&fs.ModeSymlink != 0:
				st, err := os.Stat(p)
				if err == nil && !st.IsDir() && !st.Mode().IsRegular() {
					return fmt.Errorf("%w: %s", ErrGitSpecialFile, p)
				}
				return nil
			}
			return fmt.Errorf("%w: %s", ErrGitSpecialFile, p)
		})
		if err != nil {
			return err
		}
		for _, inc := range configIncludes(gd) {
			if st, err := os.Stat(inc); err == nil && !st.IsDir() && !st.Mode().IsRegular() {
				return fmt.Errorf("%w: %s (included by %s)", ErrGitSpecialFile, inc, filepath.Join(gd, "config"))
			}
		}
	}
	return nil
}

// findGitDirs is the git directory of the work tree around dir and, for a
// linked work tree, its common directory ($GIT_DIR when set).
func findGitDirs(dir string) []string {
	var gd string
	if env := os.Getenv("GIT_DIR"); env != "" {
		gd = env
	} else {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil
		}
		for d := abs; ; d = filepath.Dir(d) {
			p := filepath.Join(d, ".git")
			if st, err := os.Lstat(p); err == nil {
				switch {
				case st.IsDir():
					gd = p
				case st.Mode().IsRegular():
					b, err := readSmall(p)
					if err != nil {
						return nil
					}
					s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
					if !ok {
						return nil
					}
					gd = strings.TrimSpace(s)
					if !filepath.IsAbs(gd) {
						gd = filepath.Join(d, gd)
					}
				default:
					return []string{p} // a special .git: the walk refuses it
				}
				break
			}
			if filepath.Dir(d) == d {
				return nil
			}
		}
	}
	out := []string{gd}
	if b, err := readSmall(filepath.Join(gd, "commondir")); err == nil {
		cd := strings.TrimSpace(string(b))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gd, cd)
		}
		out = append(out, filepath.Clean(cd))
	}
	return out
}

// readSmall reads a small regular file (never a FIFO).
func readSmall(p string) ([]byte, error) {
	return ReadFileLimited(p, 1<<20)
}

// configIncludes lists the paths the include.path / includeIf.*.path
// entries of gd's config name (relative ones taken from gd, ~ from $HOME).
func configIncludes(gd string) []string {
	b, err := readSmall(filepath.Join(gd, "config"))
	if err != nil {
		return nil
	}
	var out []string
	inInclude := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			sec := strings.ToLower(strings.TrimSpace(strings.Trim(strings.SplitN(line, "]", 2)[0], "[")))
			inInclude = sec == "include" || strings.HasPrefix(sec, "includeif")
			continue
		}
		if !inInclude {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "path") {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"`)
		switch {
		case v == "":
			continue
		case strings.HasPrefix(v, "~/"):
			home, _ := os.UserHomeDir()
			v = filepath.Join(home, v[2:])
		case !filepath.IsAbs(v):
			v = filepath.Join(gd, v)
		}
		out = append(out, v)
	}
	return out
}
