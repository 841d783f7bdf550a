package main

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// childPeak runs /bin/true and returns the peak RSS (KiB) it reports.
func childPeak(t *testing.T) int64 {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

// touch allocates and writes n MiB, so that they are resident.
func touch(n int) []byte {
	b := make([]byte, n<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	return b
}

// TestLowerParentPeak: a child's peak RSS carries the parent's high-water
// mark (the mechanism, checked first, so the test fails where it is
// absent rather than pass for nothing), and lowerParentPeak takes it off.
func TestLowerParentPeak(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ru_maxrss and /proc/self/clear_refs are Linux's")
	}
	const big = 64 // MiB
	b := touch(big)
	carried := childPeak(t)
	runtime.KeepAlive(b)
	if carried < big<<10 {
		t.Fatalf("a child of a parent holding %d MiB reports %d KiB: the mechanism this guards against is not here", big, carried)
	}
	b = nil
	floor := lowerParentPeak()
	got := childPeak(t)
	if floor <= 0 {
		t.Fatal("lowerParentPeak could not read the parent's resident set")
	}
	if got > floor+16<<10 {
		t.Errorf("after lowerParentPeak a child reports %d KiB, over the %d KiB the parent holds", got, floor)
	}
	// The race detector keeps the shadow of freed memory resident: there
	// the parent still holds about what it had.
	if !race.Enabled && got >= big<<10 {
		t.Errorf("after lowerParentPeak a child reports %d KiB: the parent's %d MiB are still counted", got, big)
	}
	if parentFloor < floor {
		t.Errorf("parentFloor %d KiB, below the floor %d KiB just returned", parentFloor, floor)
	}
}
