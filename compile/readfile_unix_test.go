//go:build unix

package compile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 11 item 2: hostile files in place of the files loading reads. Each
// load must come back (the 10 s timeout is a hang detector, not a speed
// assertion) with a finding, without reading what it refuses.

func withTimeout(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s hangs (no return within 10 s)", what)
	}
}

// hostilePkg writes a minimal package: agents/acme/pkg with package.json
// and cinatra/oas.json, plus the tree's registry.
func hostilePkg(t *testing.T) (dir, registry string) {
	root := filepath.Join(t.TempDir(), "agents")
	dir = filepath.Join(root, "acme", "pkg")
	registry = filepath.Join(root, "_shared", "cinatra", "components.json")
	for p, body := range map[string]string{
		filepath.Join(dir, "package.json"):        `{"name":"@acme/pkg","version":"1.0.0"}`,
		filepath.Join(dir, "cinatra", "oas.json"): `{"component_type":"Flow"}`,
		registry: `{}`,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, registry
}

func replaceWithFIFO(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func findingFor(a *Agent, file, code string) *Finding {
	for i, f := range a.Findings {
		if f.File == file && f.Code == code {
			return &a.Findings[i]
		}
	}
	return nil
}

func TestLoadRefusesFIFO(t *testing.T) {
	for _, which := range []string{"cinatra/oas.json", "package.json", "registry", "registry-option", "cinatra.json"} {
		t.Run(which, func(t *testing.T) {
			dir, registry := hostilePkg(t)
			target := filepath.Join(dir, filepath.FromSlash(which))
			opts := LoadOptions{}
			switch which {
			case "registry":
				target = registry
			case "registry-option":
				target = filepath.Join(t.TempDir(), "components.json")
				if err := os.WriteFile(target, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				opts.RegistryPath = target
			case "cinatra.json":
				if err := os.WriteFile(target, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			replaceWithFIFO(t, target)
			var a *Agent
			var err error
			withTimeout(t, "Load with a FIFO as "+which, func() { a, err = Load(dir, opts) })
			if err != nil {
				t.Fatal(err)
			}
			f := findingFor(a, target, "agent_read_failed")
			if f == nil || f.Severity != Blocker || !strings.Contains(f.Message, "not a regular file (a FIFO)") {
				t.Fatalf("want agent_read_failed \"not a regular file\" on %s, got %+v", target, a.Findings)
			}
		})
	}
}

// TestLoadFIFOFlowGivenDirectly: `oastui lint pipe.json` on a FIFO.
func TestLoadFIFOFlowGivenDirectly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var a *Agent
	var err error
	withTimeout(t, "Load of a FIFO", func() { a, err = Load(p, LoadOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if findingFor(a, p, "agent_read_failed") == nil || a.Flow.Root != nil {
		t.Fatalf("FIFO flow file not refused: %+v", a.Findings)
	}
	if _, err := Compile(a); err == nil {
		t.Fatal("compile succeeded on a FIFO")
	}
}

func TestReadFileLimitedRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{fifo: "a FIFO", dir: "a directory", zero: "a character device"} {
		var err error
		withTimeout(t, "ReadFileLimited("+path+")", func() { _, err = ReadFileLimited(path, MaxFileBytes) })
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), kind) {
			t.Errorf("%s: err = %v, want not a regular file (%s)", path, err, kind)
		}
	}
	if _, err := ReadFileLimited(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFileLimited(small, 5); err != nil || string(b) != "12345" {
		t.Errorf("at the limit: %q %v", b, err)
	}
	if _, err := ReadFileLimited(small, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
}

// TestLoadSymlinkToDevZero: a flow file that is a symlink to /dev/zero
// (stat follows it to a character device) is refused, not read forever.
func TestLoadSymlinkToDevZero(t *testing.T) {
	dir, _ := hostilePkg(t)
	flow := filepath.Join(dir, "cinatra", "oas.json")
	if err := os.Remove(flow); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", flow); err != nil {
		t.Fatal(err)
	}
	var a *Agent
	var err error
	withTimeout(t, "Load with oas.json -> /dev/zero", func() { a, err = Load(dir, LoadOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if f := findingFor(a, flow, "agent_read_failed"); f == nil || !strings.Contains(f.Message, "not a regular file (a character device)") {
		t.Fatalf("symlink to /dev/zero not refused: %+v", a.Findings)
	}
}

// TestLoadSparseGigabyte: a 1 GB (sparse) flow file is refused from its
// stat, without reading it: the load allocates far less than the file.
func TestLoadSparseGigabyte(t *testing.T) {
	dir, _ := hostilePkg(t)
	flow := filepath.Join(dir, "cinatra", "oas.json")
	if err := os.Truncate(flow, 1<<30); err != nil {
		t.Skipf("truncate: %v", err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var a *Agent
	var err error
	withTimeout(t, "Load of a 1 GB flow", func() { a, err = Load(dir, LoadOptions{}) })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	f := findingFor(a, flow, "invalid_json")
	if f == nil || f.Message != "not read, beyond oastui's limits: file is 1024.0 MiB; oastui reads at most 16 MiB" {
		t.Fatalf("1 GB flow not refused with the limits finding: %+v", a.Findings)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > MaxFileBytes {
		t.Fatalf("loading a refused 1 GB file allocated %d bytes", grew)
	}
}
