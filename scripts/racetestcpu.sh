#!/bin/sh
# CPU time (user+sys, seconds) of each top-level test of one package under
# -race, each test alone in its own process, slowest first:
#   scripts/racetestcpu.sh ./lint            # every test (and fuzz seed run)
#   scripts/racetestcpu.sh ./lint 'Rule'     # the tests whose name matches
# A test alone pays what it would share with others in the suite (a cache
# built by whichever test comes first), so the sum exceeds the package's
# CPU. Set RACE= (empty) to measure without -race. Needs GNU time.
set -eu
cd "$(dirname "$0")/.."
race="${RACE--race}"
pkg="$1"
pat="${2:-.}"
bin=$(mktemp)
out=$(mktemp)
res=$(mktemp)
trap 'rm -f "$bin" "$out" "$res"' EXIT
go test $race -c -o "$bin" "$pkg"
cd "$pkg"
for t in $("$bin" -test.list "$pat"); do
	GORACE=atexit_sleep_ms=0 /usr/bin/time -f '%U %S' -o "$out" "$bin" -test.run "^$t\$" -test.count=1 >/dev/null 2>&1 || echo "FAIL $t" >&2
	awk -v t="$t" '{printf "%.2f\t%s\n", $1 + $2, t}' "$out" >>"$res"
done
sort -rn "$res"
awk '{s += $1} END {printf "sum\t%.1f\n", s}' "$res"
