package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
)

// profiles are the -cpuprofile and -memprofile files ("" = none).
type profileFiles struct{ cpu, mem string }

var profiles profileFiles

// name is file, or with several profiled commands file with the label
// before its extension (cpu.out → cpu.full.out).
func profileName(file, label string, several bool) string {
	if !several {
		return file
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "." + label + ext
}

// child runs bin with args once more, profiled (the oastui binary writes
// the profiles named by OASTUI_CPUPROFILE / OASTUI_MEMPROFILE), outside
// the timed runs.
func (p *profileFiles) child(bin string, args []string, label string, several bool) error {
	if p.cpu == "" && p.mem == "" {
		return nil
	}
	var env []string
	if p.cpu != "" {
		env = append(env, "OASTUI_CPUPROFILE="+profileName(p.cpu, label, several))
	}
	if p.mem != "" {
		env = append(env, "OASTUI_MEMPROFILE="+profileName(p.mem, label, several))
	}
	if _, _, _, err := lintOnce(bin, args, env); err != nil {
		return err
	}
	for _, e := range env {
		fmt.Println("profile:", e[strings.IndexByte(e, '=')+1:])
	}
	return nil
}

// self profiles this process (the modes that measure in-process) until
// the returned stop is called.
func (p *profileFiles) self() (stop func(), err error) {
	var cpu *os.File
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			return nil, err
		}
	}
	if p.mem != "" {
		runtime.MemProfileRate = 64 << 10
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
			fmt.Println("profile:", p.cpu)
		}
		if p.mem != "" {
			if f, err := os.Create(p.mem); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
				fmt.Println("profile:", p.mem)
			}
		}
	}, nil
}
