#!/bin/sh
# CPU time (user+sys, seconds) of `go test -race -count=1` per package, one
# package after the other, and the total: the race suite's cost measured in a
# way a busy machine distorts less than wall time.
#   scripts/racecpu.sh                 # every package
#   scripts/racecpu.sh ./lint ./tui    # some
# Set RACE= (empty) to measure without -race. Needs GNU time (/usr/bin/time).
set -eu
cd "$(dirname "$0")/.."
race="${RACE--race}"
[ $# -gt 0 ] || set -- $(go list ./...)
total=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for p in "$@"; do
	if GORACE=atexit_sleep_ms=0 /usr/bin/time -f '%U %S %e' -o "$out" go test $race -count=1 "$p" >/dev/null 2>&1; then st=ok; else st=FAIL; fi
	cpu=$(awk '{printf "%.1f", $1 + $2}' "$out")
	wall=$(awk '{printf "%.1f", $3}' "$out")
	total=$(awk -v a="$total" -v b="$cpu" 'BEGIN{printf "%.1f", a + b}')
	printf '%s\t%s cpu\t%s wall\t%s\n' "$st" "$cpu" "$wall" "$p"
done
printf 'total\t%s cpu\n' "$total"
