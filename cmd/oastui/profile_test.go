package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWithProfilesMemSampling: without OASTUI_MEMPROFILE the command runs
// with the runtime's sampling of allocations off; with it, sampled at
// 64 KiB and the profile written at exit.
func TestWithProfilesMemSampling(t *testing.T) {
	before := runtime.MemProfileRate
	t.Cleanup(func() { runtime.MemProfileRate = before })
	t.Setenv("OASTUI_CPUPROFILE", "")

	t.Setenv("OASTUI_MEMPROFILE", "")
	runtime.MemProfileRate = 512 << 10 // the runtime's default
	var rate int
	if code := withProfiles(func() int { rate = runtime.MemProfileRate; return 3 }); code != 3 {
		t.Fatalf("exit code %d, want the command's 3", code)
	}
	if rate != 0 {
		t.Errorf("no OASTUI_MEMPROFILE: the command ran with MemProfileRate %d, want 0 (sampling off)", rate)
	}

	p := filepath.Join(t.TempDir(), "mem.prof")
	t.Setenv("OASTUI_MEMPROFILE", p)
	withProfiles(func() int { rate = runtime.MemProfileRate; return 0 })
	if rate != 64<<10 {
		t.Errorf("OASTUI_MEMPROFILE set: MemProfileRate %d, want %d", rate, 64<<10)
	}
	if st, err := os.Stat(p); err != nil || st.Size() == 0 {
		t.Errorf("OASTUI_MEMPROFILE set: no profile written (%v)", err)
	}
}
