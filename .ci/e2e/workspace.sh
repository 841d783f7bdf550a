#!/usr/bin/env bash
# End-to-end test of the workspace screen (issue 18): the real oastui binary
# in tmux (private server socket, fixed size) on a copy of the corpus's
# agents/ tree. Waits for text by polling capture-pane with a deadline,
# never by sleeping. Breaks one agent's flow file from outside: its row
# must turn red ("not parsed") and move to the top; fixing it must
# bring it back. Then the Graph tab, the filter, and enter/esc with the
# selection kept. Prints "N passed, N failed"; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

command -v tmux >/dev/null 2>&1 || { echo "tmux not installed"; echo "0 passed, 1 failed"; exit 1; }
corpus=../shared/corpus/cinatra/agents
if [ ! -d "$corpus" ]; then echo "skip: $corpus not found"; echo "0 passed, 0 failed"; exit 0; fi

work=$(mktemp -d)
sock="oastui-ws-e2e-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

pass=0; fail=0
ok()   { pass=$((pass+1)); echo "ok   - $1"; }
bad()  { fail=$((fail+1)); echo "FAIL - $1"; if [ -n "${2:-}" ]; then echo "---- screen ----"; echo "$2"; echo "----------------"; fi; }

bin="$work/oastui"
if ! go build -o "$bin" ./cmd/oastui; then
  echo "build failed"; echo "0 passed, 1 failed"; exit 1
fi

screen() { tm capture-pane -p -t "$1" 2>/dev/null; }
# wait_for SESSION TEXT [SECONDS]: poll the pane until TEXT shows.
wait_for() {
  local s=$1 text=$2 end=$((SECONDS + ${3:-10}))
  while [ $SECONDS -le $end ]; do
    if screen "$s" | grep -qF -- "$text"; then return 0; fi
    sleep 0.05
  done
  return 1
}
# wait_row SESSION N TEXT... [SECONDS via WAIT]: poll until table row N
# (1 = the first agent; the pane's line 3+N) holds every TEXT.
wait_row() {
  local s=$1 n=$2; shift 2
  local end=$((SECONDS + ${WAIT:-10})) line t all
  while [ $SECONDS -le $end ]; do
    line=$(screen "$s" | sed -n "$((n + 3))p")
    all=1
    for t in "$@"; do
      if ! printf '%s' "$line" | grep -qF -- "$t"; then all=0; break; fi
    done
    if [ $all = 1 ]; then return 0; fi
    sleep 0.05
  done
  return 1
}
check() { # check NAME SESSION TEXT [SECONDS]
  if wait_for "$2" "$3" "${4:-10}"; then ok "$1"; else bad "$1" "$(screen "$2")"; fi
}
# wait_gone SESSION TEXT [SECONDS]: poll until TEXT is no longer shown.
wait_gone() {
  local s=$1 text=$2 end=$((SECONDS + ${3:-10}))
  while [ $SECONDS -le $end ]; do
    if ! screen "$s" | grep -qF -- "$text"; then return 0; fi
    sleep 0.05
  done
  return 1
}
check_row() { # check_row NAME SESSION N TEXT...
  local name=$1 s=$2; shift 2
  if wait_row "$s" "$@"; then ok "$name"; else bad "$name" "$(screen "$s")"; fi
}

# --- a copy of the corpus tree -----------------------------------------------
tree="$work/agents"
cp -r "$corpus" "$tree"
agent="$tree/cinatra-ai/trigger-agent"
flow="$agent/cinatra/oas.json"
cp "$flow" "$work/good.json"

tm new-session -d -s keep -x 40 -y 5 "sleep 600"
tm new-session -d -s w -x 170 -y 36 -c "$work" "$bin agents"
check "the tree opens the workspace table" w "workspace agents/ · 25 agents"
check "the header counts the problems" w "✖ 4 blocked"
check "the table has its columns" w "status"
check_row "worst first: a blocked agent on top" w 1 "✖1 "
check_row "a clean agent is clean" w 25 "● clean"

# --- break one agent: its row turns red and goes to the top -------------------
printf '{"agentspec_version": "26.1.0", "component_type": ' > "$flow"
check_row "a broken agent goes to the top" w 1 "not parsed" "trigger-agent"
check_row "its last good title stays" w 1 "Trigger Agent"
check "the header counts it broken" w "✖ 1 broken"

# --- fix it: it recovers ------------------------------------------------------
cp "$work/good.json" "$flow"
check_row "the fixed agent leaves the top" w 1 "✖1 "
if wait_for w "✖ 1 broken" 1; then bad "the fixed agent is no longer counted broken" "$(screen w)"; else ok "the fixed agent is no longer counted broken"; fi
check_row "and is clean again, last" w 25 "● clean" "trigger-agent"

# --- a child's save re-reviews its orchestrators ------------------------------
child="$tree/cinatra-ai/context-selection-agent/package.json"
cp "$child" "$work/pkg.orig"
sed 's/"version": "0.1.1"/"version": "0.9.0"/' "$child" > "$work/pkg.json" && cat "$work/pkg.json" > "$child"
tm send-keys -t w '/'
tm send-keys -t w 'blog-draft'
tm send-keys -t w Enter
# (the version mismatch: two warnings, one for cinatra.dependencies and one
# for cinatra.agentDependencies; the agent is clean before)
check_row "the orchestrator now sees the child's version it does not accept" w 1 "blog-draft-writer-agent" "⚠2 "
# --- the agent view shows its workspace findings, kept current ----------------
tm send-keys -t w Enter
check "the agent view lists the orchestrator's workspace finding" w "workspace_child_version_mismatch"
cp "$work/pkg.orig" "$child" 2>/dev/null
if wait_gone w "workspace_child_version_mismatch" 10; then ok "the child's fix removes it from the open agent view"; else bad "the child's fix removes it from the open agent view" "$(screen w)"; fi
tm send-keys -t w Escape
check_row "back in the table, the orchestrator is as before the child's change" w 1 "blog-draft-writer-agent" "● clean"

# --- filter, graph, open and come back -----------------------------------------
tm send-keys -t w '/'
check "/ edits the filter" w "enter keep · esc clear"
tm send-keys -t w Escape
if wait_gone w 'filter "' 10; then ok "esc clears the filter"; else bad "esc clears the filter" "$(screen w)"; fi
tm send-keys -t w 2
# the corpus' drawing is 456 columns wide: wider than the pane, the tab shows
# the calls as an indented tree, as graph --workspace does (issue 37)
check "the Graph tab shows the call graph (as a tree: wider than the pane)" w "calls as a tree"
check "the tree lists an orchestrator's children" w "└─→ "
check "the graph shows a missing child" w "missing"
tm send-keys -t w 1
check "1 comes back to the table" w "sorted by status"
tm send-keys -t w Down
check_row "down moves the selection" w 2 "›"
tm send-keys -t w Enter
check "enter opens the agent view" w "graph:"
tm send-keys -t w Escape
check "esc comes back to the table" w "sorted by status"
check_row "with the same agent selected" w 2 "›"
tm send-keys -t w q
end=$((SECONDS + 5)); gone=0
while [ $SECONDS -le $end ]; do
  if ! tm has-session -t w 2>/dev/null; then gone=1; break; fi
  sleep 0.05
done
if [ $gone = 1 ]; then ok "q quits"; else bad "q quits" "$(screen w)"; fi

# --- the sizes terminals open at: 80×24 and 100×30 ----------------------------
for size in 80x24 100x30; do
  x=${size%x*}; y=${size#*x}
  tm new-session -d -s "n$x" -x "$x" -y "$y" -c "$work" "$bin agents"
  check "$size: the table opens" "n$x" "workspace agents/ · 25 agents"
  check_row "$size: the slug shows whole, the status as counts" "n$x" 1 "blog-pipeline-agent" "✖1 "
  if screen "n$x" | grep -qF "cinatra…"; then bad "$size: no row reads cinatra…" "$(screen "n$x")"; else ok "$size: no row reads cinatra…"; fi
  tm send-keys -t "n$x" Enter
  check "$size: the agent view's tabs have whole names" "n$x" "│Steps│Node"
  if screen "n$x" | grep -qF "Fin│Ste"; then bad "$size: no cut tab names" "$(screen "n$x")"; else ok "$size: no cut tab names"; fi
  tm send-keys -t "n$x" Escape
  check "$size: esc comes back to the table" "n$x" "sorted by status"
  tm send-keys -t "n$x" q
done

# --- headless: graph --workspace and lint --format summary --------------------
# (the output is read whole first: grep -q stopping early would make the
# writer's next write fail, and pipefail the test)
graph=$(cd "$work" && "$bin" graph agents --workspace)
if printf '%s\n' "$graph" | grep -qF "context-selection-agent"; then ok "graph --workspace prints the call graph"; else bad "graph --workspace prints the call graph"; fi
if printf '%s\n' "$graph" | grep -qF -- "--workspace --format dot"; then ok "graph --workspace says a wide drawing reads better as dot or mermaid"; else bad "graph --workspace says a wide drawing reads better as dot or mermaid" "$graph"; fi
calls=$(printf '%s\n' "$graph" | sed -n '/agents call no other agent/q;p')
widest=$(printf '%s\n' "$calls" | awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }')
if printf '%s\n' "$calls" | grep -qF "│   └─→ context-selection-agent" && [ "$widest" -le 120 ]; then ok "graph --workspace lays the calls out as a tree within 120 columns ($widest)"; else bad "graph --workspace lays the calls out as a tree within 120 columns ($widest)" "$calls"; fi
summary=$(cd "$work" && "$bin" lint agents --format summary; true)
if printf '%s\n' "$summary" | grep -qF "25 agents:"; then ok "lint --format summary"; else bad "lint --format summary"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
