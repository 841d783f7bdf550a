#!/usr/bin/env bash
# End-to-end test of the context picker: runs the real `oastui pick` in tmux
# (private server socket, no user config, fixed size) over a copy of the
# bundled example agent whose slot is made to need at least one ref, with
# the demo catalog. It waits for text by polling capture-pane with a
# deadline (never sleep-and-hope), toggles, reaches the cap, tries to
# confirm below minItems, confirms, and checks the envelope file and
# `oastui audit`. Prints "N passed, N failed"; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

if ! command -v tmux >/dev/null 2>&1; then
  echo "tmux not found: skipping the picker end-to-end test"
  echo "0 passed, 0 failed"
  exit 0
fi

work=$(mktemp -d)
sock="oastui-picker-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

pass=0; fail=0
ok()  { pass=$((pass+1)); echo "ok   - $1"; }
bad() { fail=$((fail+1)); echo "FAIL - $1"; if [ -n "${2:-}" ]; then echo "---- output ----"; echo "$2"; echo "----------------"; fi; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

bin="$work/oastui"
if ! go build -o "$bin" ./cmd/oastui; then
  echo "build failed"; echo "0 passed, 1 failed"; exit 1
fi

screen() { tm capture-pane -p -t "$1" 2>/dev/null; }
# wait_for SESSION TEXT [SECONDS]: poll the pane until TEXT shows.
wait_for() {
  local end=$((SECONDS + ${3:-10}))
  while [ $SECONDS -le $end ]; do
    if screen "$1" | grep -qF -- "$2"; then return 0; fi
    sleep 0.05
  done
  return 1
}
check() { # check NAME SESSION TEXT [SECONDS]
  if wait_for "$2" "$3" "${4:-10}"; then ok "$1"; else bad "$1" "$(screen "$2")"; fi
}
# wait_file FILE [SECONDS]: poll until FILE exists and is not empty.
wait_file() {
  local end=$((SECONDS + ${2:-10}))
  while [ $SECONDS -le $end ]; do
    if [ -s "$1" ]; then return 0; fi
    sleep 0.05
  done
  return 1
}
keys() { tm send-keys -t "$1" "${@:2}"; }

# --- workspace: the example agent (slot needs ≥1) and the demo catalog -------
ws="$work/ws"
agent="$ws/agents/oastui/example-agent"
mkdir -p "$(dirname "$agent")" "$ws/.oastui"
cp -r testdata/agents/oastui/example-agent "$agent"
cp testdata/.oastui/catalog.json "$ws/.oastui/catalog.json"
flow="$agent/cinatra/oas.json"
sed -i 's/"minItems": 0,/"minItems": 1,/' "$flow"
# (plain grep/sed, no jq: CI machines start clean)
slot=$(grep -o '"slotId": *"[^"]*"' "$flow" | head -1 | sed 's/.*"\([^"]*\)"$/\1/')
max=$(grep -o '"maxItems": *[0-9]*' "$flow" | head -1 | grep -o '[0-9]*$')
if [ -z "$slot" ] || [ -z "$max" ] || ! grep -q '"minItems": 1,' "$flow"; then
  bad "fixture: the example slot has a slotId, minItems 1 and a maxItems" "$(grep -n -A12 contextSlots "$flow")"
  finish
fi
db="$work/audit.db"
env="$work/envelope.json"

# pick SESSION ARGS...: run `oastui pick` in a new session; its stderr goes
# to $work/SESSION.err and its exit code to $work/SESSION.exit.
pick() {
  local s=$1; shift
  tm new-session -d -s "$s" -x 100 -y 30 \
    "$bin pick $agent --slot $slot $* 2>$work/$s.err; echo \$? > $work/$s.exit"
}

# --- 1: toggle, cap, confirm refused below minItems, confirm -----------------
pick p1 --run e2e-run-1 --out "$env" --audit "$db"
check "opens the picker with the slot and badges" p1 "Combine (accumulate) · up to $max · at least 1 · readable-only"
check "footer counts against the cap" p1 "0 selected / $max — need at least 1"
for g in Personal Team Organization Workspace; do check "scope group $g" p1 "$g"; done
check "satisfies-linked candidate offered" p1 "Growth team tone guide"
if screen p1 | grep -qE "Draft voice|Tone snippets|2024|Bob's"; then
  bad "ineligible, two-hop, deleted and foreign artifacts are not offered" "$(screen p1)"
else ok "ineligible, two-hop, deleted and foreign artifacts are not offered"; fi

keys p1 Enter
check "confirm below minItems is refused with the reason" p1 "cannot confirm: need at least 1 (0 selected)"

keys p1 Space
check "space checks a row" p1 "1 selected / $max"
for i in $(seq 2 "$max"); do keys p1 j Space; done
check "cap reached" p1 "$max selected / $max — maximum selected"
keys p1 j Space
check "an unchecked row at the cap refuses the key" p1 "limit $max reached — uncheck one first"
check "the count did not change" p1 "$max selected / $max"

tm resize-window -t p1 -x 60 -y 20 2>/dev/null
check "still drawn after a resize to 60x20" p1 "$max selected / $max"

keys p1 Enter
if wait_file "$work/p1.exit"; then
  code=$(cat "$work/p1.exit")
  if [ "$code" = 0 ]; then ok "confirm exits 0"; else bad "confirm exits 0 (got $code)" "$(cat "$work/p1.err")"; fi
else
  bad "the picker quits on confirm" "$(screen p1)"
fi
ref='\{"artifactId":"[^"]+","representationRevisionId":"[^"]+","semanticAssertionId":"[^"]+","extension":"[^"]+","sourceScope":"(project|user|team|organization|workspace)","ownerId":"[^"]+"\}'
if [ -s "$env" ] && grep -q "^{\"slotId\":\"$slot\",\"resolutionMode\":\"accumulate\",\"selectedRefs\":\[" "$env" \
   && [ "$(grep -oE "$ref" "$env" | wc -l)" = "$max" ]; then
  ok "envelope file {slotId, resolutionMode, selectedRefs} with $max refs"
else
  bad "envelope file" "$(cat "$env" 2>/dev/null)"
fi
if grep -q "wrote $max row(s) for run e2e-run-1" "$work/p1.err"; then ok "stderr reports the audit rows"; else bad "stderr reports the audit rows" "$(cat "$work/p1.err")"; fi

audit_out=$("$bin" audit --audit "$db" --run e2e-run-1)
rows=$(printf '%s\n' "$audit_out" | tail -n +2 | grep -c "$slot")
if [ "$rows" = "$max" ] && printf '%s\n' "$audit_out" | grep -q "@oastui/example-agent" && printf '%s\n' "$audit_out" | head -1 | grep -q "^SELECTED_AT"; then
  ok "oastui audit lists the $max rows"
else
  bad "oastui audit lists the $max rows" "$audit_out"
fi
first=$(grep -o '"artifactId":"[^"]*"' "$env" | head -1 | sed 's/.*:"\(.*\)"/\1/')
audit_json=$("$bin" audit --audit "$db" --run e2e-run-1 --format json)
if [ -n "$first" ] && [ "$(printf '%s\n' "$audit_json" | grep -o '"artifactId": "[^"]*"' | head -1)" = "\"artifactId\": \"$first\"" ] \
   && [ "$(printf '%s\n' "$audit_json" | grep -c '"selectedBy": "user"')" = "$max" ] \
   && [ "$(printf '%s\n' "$audit_json" | grep -c '"selectionMode": "interactive"')" = "$max" ]; then
  ok "audit rows match the envelope (selected_at, id order)"
else
  bad "audit rows match the envelope" "$("$bin" audit --audit "$db" --format json)"
fi

# --- 2: the same confirmation again writes nothing and says so ---------------
pick p2 --run e2e-run-1 --out "$work/env2.json" --audit "$db"
check "second picker opens" p2 "0 selected / $max"
keys p2 Space
for i in $(seq 2 "$max"); do keys p2 j Space; done
check "same selection made again" p2 "$max selected / $max"
keys p2 Enter
if wait_file "$work/p2.exit" && grep -q "already recorded for run e2e-run-1" "$work/p2.err" && grep -q "nothing written" "$work/p2.err"; then
  ok "a repeated confirm writes nothing and says so"
else
  bad "a repeated confirm writes nothing and says so" "$(cat "$work/p2.err" 2>/dev/null)"
fi
rows=$("$bin" audit --audit "$db" --format json | grep -c '"id": ')
if [ "$rows" = "$max" ]; then ok "no duplicate audit rows"; else bad "no duplicate audit rows ($rows)"; fi

# --- 3: cancel, with a fresh run id ------------------------------------------
pick p3 --out "$work/env3.json" --audit "$db"
check "third picker opens" p3 "0 selected / $max"
keys p3 Space Escape
if wait_file "$work/p3.exit" && [ "$(cat "$work/p3.exit")" = 1 ] && grep -q "cancelled; nothing written" "$work/p3.err" \
   && grep -qE "parent run id dev-[0-9a-f]{16}" "$work/p3.err" && [ ! -e "$work/env3.json" ]; then
  ok "esc cancels (exit 1, no envelope) and the fresh run id is printed"
else
  bad "esc cancels" "$(cat "$work/p3.err" 2>/dev/null; cat "$work/p3.exit" 2>/dev/null)"
fi

finish
