package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/oastui/oastui/internal/hostile"
)

// runHostile times `oastui lint --format json` (the real binary, built
// here) on the hostile layouts of issue 11 item 1 and prints each one's
// wall time and peak RSS, and the ratio of the minified flow to the same
// content pretty-printed (target ≤ 1.5×; the valid 50k-node flow: under
// 2 s and 300 MB).
func runHostile(runs int) error {
	if runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	tmp, err := os.MkdirTemp("", "oastbench-hostile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	minified := hostile.Flow(4000, false)
	pretty, err := hostile.Pretty(minified)
	if err != nil {
		return err
	}
	inputs := []struct{ name, file string }{
		{"4k nodes / 8k edges, minified", "minified.json"},
		{"4k nodes / 8k edges, pretty", "pretty.json"},
		{"valid 50k-node flow", "valid50k.json"},
		{"20k-key YAML flow mapping", "mapping.yaml"},
	}
	data := map[string][]byte{
		"minified.json": minified, "pretty.json": pretty,
		"valid50k.json": hostile.Flow(50000, true), "mapping.yaml": hostile.YAMLFlowMapping(20000),
	}
	for name, b := range data {
		if err := os.WriteFile(filepath.Join(tmp, name), b, 0o644); err != nil {
			return err
		}
	}
	bin := filepath.Join(tmp, "oastui")
	build := exec.Command("go", "build", "-o", bin, "./cmd/oastui")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/oastui (run from the repository root): %w", err)
	}
	bestWall := map[string]time.Duration{}
	for _, in := range inputs {
		var walls []time.Duration
		var rss []int64
		for range runs {
			cmd := exec.Command(bin, "lint", filepath.Join(tmp, in.file), "--format", "json", "--fail-on", "none")
			cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
			start := time.Now()
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("oastui lint %s: %w", in.file, err)
			}
			walls = append(walls, time.Since(start))
			ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			if !ok {
				return errors.New("no rusage on this platform")
			}
			rss = append(rss, ru.Maxrss)
		}
		bestWall[in.file] = best(walls)
		fmt.Printf("%-32s %6.1f MB: wall %s; peak RSS %s\n", in.name, float64(len(data[in.file]))/1e6, durs(walls), kibs(rss))
	}
	fmt.Printf("ratio (best): minified / pretty = %.2f× (target ≤ 1.5×)\n",
		float64(bestWall["minified.json"])/float64(bestWall["pretty.json"]))
	return nil
}
