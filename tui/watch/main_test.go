package watch

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// waitingParallel is how many of this package's parallel tests and
// subtests run at once when -test.parallel is not given. Every test of the
// package is parallel and spends its time waiting for inotify and the
// debounce windows (the whole package is about 0.1 s of CPU), so the
// default of GOMAXPROCS (2 on the project's machine) ran its 20 tests and
// subtests two by two: about 6 s of wall with a core of the suite idle.
// The package has 20 of them, so all run at once.
const waitingParallel = 32

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(waitingParallel)); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
