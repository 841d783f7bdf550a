#!/bin/sh
# The slowest tests and packages of a `go test -json` run:
#   GORACE=atexit_sleep_ms=0 go test -race -count=1 -json ./... | scripts/testtimes.sh
#   scripts/testtimes.sh 30 < run.json      # the 30 slowest tests (default 25)
# Prints each package's elapsed seconds (slowest first), then the slowest
# top-level tests with their package. Subtests are left out (their time is
# inside their parent's); parallel tests overlap, so the sum of a package's
# tests may exceed the package's time. Needs jq.
set -eu
n="${1:-25}"
in=$(mktemp)
trap 'rm -f "$in"' EXIT
cat >"$in"
echo "== packages (s)"
jq -r 'select((.Action == "pass" or .Action == "fail") and .Test == null and .Elapsed != null)
	| "\(.Elapsed)\t\(.Package)"' "$in" | sort -rn | head -n "$n"
echo "== top-level tests (s)"
jq -r 'select((.Action == "pass" or .Action == "fail" or .Action == "skip") and .Test != null and (.Test | contains("/") | not))
	| "\(.Elapsed)\t\(.Package)\t\(.Test)"' "$in" | sort -rn | head -n "$n"
