#!/bin/sh
# Runs every fuzz target of the module (each `func FuzzXxx` of a _test.go
# file), one after the other, for FUZZTIME each (default 30s):
#   scripts/fuzz.sh            # all of them
#   FUZZTIME=5m scripts/fuzz.sh
# FuzzDiff (diff/fuzz_test.go) is one of them (issue 35).
set -eu
cd "$(dirname "$0")/.."
t="${FUZZTIME:-30s}"
# Minimising each new input is bounded too (go test's default is 60s an input,
# which stalls a target whose executions are analyses).
m="${FUZZMINIMIZETIME:-10s}"
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
	pkg="./$(dirname "${f#./}")"
	for name in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$f"); do
		echo "== $pkg $name ($t)"
		go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$t" -fuzzminimizetime "$m"
	done
done
