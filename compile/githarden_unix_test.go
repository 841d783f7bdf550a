//go:build unix

package compile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oastui/oastui/internal/testgit"
)

// hardenRepo is a repository with one agent at agents/v/a (two commits:
// the flow changed in the second) and a directory other/ elsewhere.
func hardenRepo(t *testing.T) (repo, agent string) {
	t.Helper()
	testgit.Have(t)
	repo = t.TempDir()
	agent = filepath.Join(repo, "agents", "v", "a")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(agent, "package.json"), `{"name":"@v/a","version":"1.0.0"}`)
	write(filepath.Join(agent, "cinatra", "oas.json"), `{"component_type":"Flow","name":"one"}`)
	for i := range 20 {
		write(filepath.Join(repo, "other", "d"+strconv.Itoa(i), "f.txt"), "x")
	}
	testgit.Git(t, repo, "", "init", "-q")
	testgit.Git(t, repo, "", "add", "-A")
	testgit.Git(t, repo, "", "commit", "-q", "-m", "one")
	write(filepath.Join(agent, "cinatra", "oas.json"), `{"component_type":"Flow","name":"two"}`)
	testgit.Git(t, repo, "", "commit", "-q", "-am", "two")
	return repo, agent
}

// within runs f and fails t when it takes longer than d (f keeps running).
func within(t *testing.T, d time.Duration, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s: no answer within %s", what, d)
		return nil
	}
}

// gitChildren lists the processes whose parent is this test process.
func gitChildren(t *testing.T) []string {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	var out []string
	me := strconv.Itoa(os.Getpid())
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		rp := strings.LastIndexByte(s, ')')
		if rp < 0 {
			continue
		}
		f := strings.Fields(s[rp+1:])
		if len(f) > 2 && f[1] != "Z" && f[2] == me && strings.Contains(s[:rp], "git") {
			out = append(out, s[:rp+1])
		}
	}
	return out
}

// TestGitSpecialFileInGitDir (issue 35, point 4): a FIFO where git reads
// (a loose object of the revision, packed-refs, a file the config
// includes) is an error within a second, from OpenGitRev and GitLog, and
// no git process is left behind.
func TestGitSpecialFileInGitDir(t *testing.T) {
	cases := map[string]func(t *testing.T, repo string) string{
		"loose object": func(t *testing.T, repo string) string {
			oid := strings.TrimSpace(testgit.Git(t, repo, "", "rev-parse", "HEAD~1:agents/v/a/cinatra/oas.json"))
			return filepath.Join(repo, ".git", "objects", oid[:2], oid[2:])
		},
		"packed-refs": func(t *testing.T, repo string) string {
			return filepath.Join(repo, ".git", "packed-refs")
		},
		"included config": func(t *testing.T, repo string) string {
			inc := filepath.Join(t.TempDir(), "inc")
			testgit.Git(t, repo, "", "config", "include.path", inc)
			return inc
		},
	}
	for name, where := range cases {
		t.Run(name, func(t *testing.T) {
			repo, agent := hardenRepo(t)
			p := where(t, repo)
			_ = os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			start := time.Now()
			err := within(t, 5*time.Second, "OpenGitRev", func() error {
				g, err := OpenGitRev(agent, "HEAD~1")
				if err != nil {
					return err
				}
				defer g.Close()
				_, err = Load(agent, LoadOptions{Rev: g})
				return err
			})
			// Refused by the special-file check, not by a deadline running
			// out: so at once (the time is logged, not bounded).
			if !errors.Is(err, ErrRevision) || !errors.Is(err, ErrGitSpecialFile) {
				t.Errorf("OpenGitRev: %v, want ErrRevision and ErrGitSpecialFile", err)
			}
			t.Logf("refused in %s", time.Since(start))
			err = within(t, 5*time.Second, "GitLog", func() error {
				_, err := GitLog(agent, []string{filepath.Join(agent, "cinatra", "oas.json")}, 10)
				return err
			})
			if !errors.Is(err, ErrGitSpecialFile) {
				t.Errorf("GitLog: %v, want ErrGitSpecialFile", err)
			}
			if kids := gitChildren(t); len(kids) > 0 {
				t.Errorf("git processes left: %v", kids)
			}
		})
	}
}

// TestGitRevReadsOnlyTheAgentsPaths (issue 35, point 13): loading an agent
// from a revision reads the trees on the way to the agent and its own,
// never those of the repository's other directories.
func TestGitRevReadsOnlyTheAgentsPaths(t *testing.T) {
	_, agent := hardenRepo(t)
	g, err := OpenGitRev(agent, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a, err := Load(agent, LoadOptions{Rev: g, NoSiblings: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(a.Flow.Src), `"one"`) {
		t.Errorf("flow %s, want the first commit's", a.Flow.Src)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for d := range g.dirs {
		if strings.HasPrefix(d, "other") {
			t.Errorf("read the tree of %s", d)
		}
	}
	if len(g.dirs) > 8 {
		t.Errorf("%d trees read for one agent", len(g.dirs))
	}
}

// markerProgram is a shell script that creates file done when run.
func markerProgram(t *testing.T, done string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "run.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\ntouch '"+done+"'\ncat >/dev/null\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGitLogRunsNoSignatureProgram (issue 35, point 5): the History tab's
// log never runs the gpg.program of the repository's config, even with
// log.showSignature set and a signed commit.
func TestGitLogRunsNoSignatureProgram(t *testing.T) {
	repo, agent := hardenRepo(t)
	signer := filepath.Join(t.TempDir(), "sign.sh")
	script := "#!/bin/sh\ncat >/dev/null\necho '[GNUPG:] SIG_CREATED D 1 8 00 0 X' >&2\n" +
		"printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nAAAA\\n-----END PGP SIGNATURE-----\\n'\n"
	if err := os.WriteFile(signer, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent, "cinatra", "oas.json"), []byte(`{"component_type":"Flow","name":"signed"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Git(t, repo, "", "-c", "gpg.program="+signer, "-c", "user.signingkey=X", "commit", "-q", "-S", "-am", "signed")
	if !strings.Contains(testgit.Git(t, repo, "", "cat-file", "commit", "HEAD"), "gpgsig") {
		t.Skip("this git did not sign the commit")
	}
	done := filepath.Join(t.TempDir(), "ran")
	testgit.Git(t, repo, "", "config", "log.showSignature", "true")
	testgit.Git(t, repo, "", "config", "gpg.program", markerProgram(t, done))
	// The repository as configured does run it (so the test can fail).
	cmd := exec.Command("git", "-C", repo, "log", "-1", "--format=%s")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	_, _ = cmd.Output()
	if _, err := os.Stat(done); err != nil {
		t.Skip("this git does not verify signatures in log")
	}
	_ = os.Remove(done)
	if _, err := GitLog(agent, []string{filepath.Join(agent, "cinatra", "oas.json")}, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(done); err == nil {
		t.Error("GitLog ran the repository's gpg.program")
	}
}

// TestGitRevNoLazyFetch (issue 35, point 5): in a partial clone whose
// promisor remote is an ext:: command, reading an object the clone lacks
// is an error; git never runs the command.
func TestGitRevNoLazyFetch(t *testing.T) {
	src, _ := hardenRepo(t)
	testgit.Git(t, src, "", "config", "uploadpack.allowFilter", "true")
	clone := filepath.Join(t.TempDir(), "clone")
	testgit.Git(t, src, "", "-c", "protocol.file.allow=always", "clone", "-q", "--filter=blob:none", "file://"+src, clone)
	done := filepath.Join(t.TempDir(), "ran")
	testgit.Git(t, clone, "", "config", "remote.origin.url", "ext::sh -c touch% "+done)
	testgit.Git(t, clone, "", "config", "protocol.ext.allow", "always")
	agent := filepath.Join(clone, "agents", "v", "a")
	var flow []byte
	err := within(t, 15*time.Second, "Load", func() error {
		g, err := OpenGitRev(agent, "HEAD~1")
		if err != nil {
			return err
		}
		defer g.Close()
		a, err := Load(agent, LoadOptions{Rev: g, NoSiblings: true})
		if err != nil {
			return err
		}
		if a.Flow != nil {
			flow = a.Flow.Src
		}
		for _, f := range a.Findings {
			if strings.Contains(f.Message, "git cat-file failed") {
				return errors.New(f.Message)
			}
		}
		return nil
	})
	if strings.Contains(string(flow), `"one"`) {
		t.Error("the blob the clone lacks was fetched")
	}
	if err == nil {
		t.Errorf("reading a blob the clone lacks: no error")
	}
	if _, err := os.Stat(done); err == nil {
		t.Error("reading the revision ran the promisor remote's ext:: command")
	}
}
