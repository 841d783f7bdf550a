#!/bin/sh
# Byte-for-byte comparison of two oastui builds over the real data: a
# performance change must not move any output (issues 35 and 39, "nothing
# else moves").
#   scripts/sameoutput.sh BASE_BIN NEW_BIN [TREE]
# Compares, for each binary: `lint` of the corpus tree (TREE, default
# ../shared/corpus/cinatra/agents) in every format, stdout, stderr and exit
# code; `lint` of each historic revision (../shared/corpus/history) as
# JSON; and `diff --no-index` of each pair of consecutive revisions as JSON
# and text. Prints each difference and exits 1 if there is any.
set -u
base=$1 new=$2
cd "$(dirname "$0")/.."
tree=${3:-../shared/corpus/cinatra/agents}
hist=../shared/corpus/history
[ -d "$tree" ] || { echo "no corpus tree at $tree" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0 runs=0

# same NAME ARGS...: runs both binaries with ARGS, compares what they print.
same() {
	name=$1
	shift
	for b in base new; do
		eval bin=\$$b
		"$bin" "$@" >"$work/$b.out" 2>"$work/$b.err"
		echo $? >"$work/$b.rc"
	done
	runs=$((runs + 1))
	for f in out err rc; do
		if ! cmp -s "$work/base.$f" "$work/new.$f"; then
			echo "DIFFERS ($f): $name"
			fails=$((fails + 1))
		fi
	done
}

for fmt in json sarif github text summary; do
	same "lint corpus --format $fmt" lint "$tree" --format "$fmt" --fail-on none
done
same "lint corpus (exit code at blocker)" lint "$tree" --format json
if [ -d "$hist" ]; then
	for agent in "$hist"/*/; do
		prev=
		for rev in "$agent"[0-9]*/; do
			same "lint $rev" lint "$rev" --format json --fail-on none
			if [ -n "$prev" ]; then
				same "diff $prev $rev json" diff --no-index --format json --fail-on none "$prev" "$rev"
				same "diff $prev $rev text" diff --no-index --fail-on none "$prev" "$rev"
			fi
			prev=$rev
		done
	done
fi
echo "$runs comparisons, $fails differences"
[ "$fails" -eq 0 ]
