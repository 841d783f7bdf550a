#!/usr/bin/env bash
# End-to-end: `oastui` with no PATH unpacks the bundled example into a
# temporary folder; the folder must be gone however the program ends: q,
# SIGTERM (kill) and SIGHUP (the terminal closes). Runs the real binary in
# tmux with TMPDIR pointed at a folder this script watches.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

command -v tmux >/dev/null 2>&1 || { echo "tmux not installed"; echo "0 passed, 1 failed"; exit 1; }

work=$(mktemp -d)
sock="oastui-example-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

pass=0; fail=0
ok()   { pass=$((pass+1)); echo "ok   - $1"; }
bad()  { fail=$((fail+1)); echo "FAIL - $1"; if [ -n "${2:-}" ]; then echo "---- $3 ----"; echo "$2"; echo "----------------"; fi; }

bin="$work/oastui"
if ! go build -o "$bin" ./cmd/oastui; then
  echo "build failed"; echo "0 passed, 1 failed"; exit 1
fi

# until SECONDS CMD...: poll CMD until it succeeds or the deadline passes.
until_ok() {
  local end=$((SECONDS + $1)); shift
  while [ $SECONDS -le $end ]; do
    if "$@"; then return 0; fi
    sleep 0.05
  done
  return 1
}
shows() { tm capture-pane -p -t "$1" 2>/dev/null | grep -qF -- "$2"; }
# gone PID: the process has exited (a zombie tmux has not reaped yet counts)
gone() { ! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" = Z ]; }
empty() { [ -z "$(ls -A "$1")" ]; }

tm new-session -d -s keep -x 40 -y 5 "sleep 600"
empty_dir="$work/empty"; mkdir -p "$empty_dir"

for how in q TERM HUP; do
  tmp="$work/tmp-$how"; mkdir -p "$tmp"
  tm new-session -d -s "$how" -x 120 -y 32 -c "$empty_dir" "TMPDIR=$tmp $bin"
  if ! until_ok 15 shows "$how" "bundled example"; then
    bad "$how: the bundled example opens" "$(tm capture-pane -p -t "$how" 2>/dev/null)" screen
    continue
  fi
  ok "$how: the bundled example opens"
  if empty "$tmp"; then bad "$how: the example was unpacked under TMPDIR" "$(ls -la "$tmp")" TMPDIR; else ok "$how: the example was unpacked under TMPDIR"; fi
  pid=$(tm display-message -p -t "$how" '#{pane_pid}')
  case $how in
    q) tm send-keys -t "$how" q ;;
    *) kill -s "$how" "$pid" ;;
  esac
  if until_ok 10 gone "$pid"; then ok "$how: oastui ended"; else bad "$how: oastui ended"; fi
  if until_ok 5 empty "$tmp"; then ok "$how: its temporary folder is removed"; else bad "$how: its temporary folder is removed" "$(find "$tmp")" TMPDIR; fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
