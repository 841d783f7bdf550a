#!/usr/bin/env bash
# End-to-end test of the live TUI: runs the real oastui binary in tmux (a
# private server socket, fixed size), waits for text by polling
# capture-pane with a deadline (never sleep-and-hope), edits the watched
# agent from outside in the ways editors save, and checks the screen.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

command -v tmux >/dev/null 2>&1 || { echo "tmux not installed"; echo "0 passed, 1 failed"; exit 1; }

work=$(mktemp -d)
sock="oastui-e2e-$$"
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

# wait_for SESSION TEXT [SECONDS]: poll the pane until TEXT shows.
wait_for() {
  local s=$1 text=$2 secs=${3:-10} end=$((SECONDS + ${3:-10}))
  while [ $SECONDS -le $end ]; do
    if tm capture-pane -p -t "$s" 2>/dev/null | grep -qF -- "$text"; then return 0; fi
    sleep 0.05
  done
  return 1
}
# wait_gone SESSION TEXT [SECONDS]: poll until TEXT is no longer shown.
wait_gone() {
  local s=$1 text=$2 end=$((SECONDS + ${3:-10}))
  while [ $SECONDS -le $end ]; do
    if ! tm capture-pane -p -t "$s" 2>/dev/null | grep -qF -- "$text"; then return 0; fi
    sleep 0.05
  done
  return 1
}
screen() { tm capture-pane -p -t "$1" 2>/dev/null; }
check() { # check NAME SESSION TEXT [SECONDS]
  if wait_for "$2" "$3" "${4:-10}"; then ok "$1"; return; fi
  # say which failure it was: the program gone, a blank screen, or other text
  if ! tm has-session -t "$2" 2>/dev/null; then bad "$1 (the program had exited)"; return; fi
  local shown; shown=$(screen "$2")
  if [ -z "$(printf '%s' "$shown" | tr -d '[:space:]')" ]; then bad "$1 (the screen is blank)"; else bad "$1" "$shown"; fi
}

# --- a copy of a fixture agent, watched live ---------------------------------
agent="$work/agents/e2e/clean-agent"
mkdir -p "$(dirname "$agent")"
cp -r testdata/tui/agents/oastui-tui/clean-agent "$agent"
flow="$agent/cinatra/oas.json"

# a session that outlives the others, so the server never exits between tests
tm new-session -d -s keep -x 40 -y 5 "sleep 600"
tm new-session -d -s t -x 120 -y 32 "$bin $agent"
check "opens the agent" t "Clean Agent"
check "shows the tabs" t "Findings"

# write in place
sed 's/"name": "Clean Agent"/"name": "Edited Agent"/' "$flow" > "$work/tmp.json" && cat "$work/tmp.json" > "$flow"
check "write in place re-analyses" t "Edited Agent"

# broken save: the last good graph stays, marked stale, parse error shown
printf '{"agentspec_version": "26.1.0", "component_type": ' > "$flow"
check "broken save marks stale" t "stale"
check "parse error is a blocker" t "invalid_json"
check "last good name kept" t "Edited Agent"

# rename-and-replace (vim without backupcopy, atomic savers)
sed 's/"name": "Clean Agent"/"name": "Renamed Agent"/' testdata/tui/agents/oastui-tui/clean-agent/cinatra/oas.json > "$agent/cinatra/.oas.json.tmp"
mv "$agent/cinatra/.oas.json.tmp" "$flow"
check "rename-and-replace re-analyses" t "Renamed Agent"
if wait_gone t "stale" 5; then ok "repaired file is no longer stale"; else bad "repaired file is no longer stale" "$(screen t)"; fi

# delete then create
rm "$flow"
sed 's/"name": "Clean Agent"/"name": "Recreated Agent"/' testdata/tui/agents/oastui-tui/clean-agent/cinatra/oas.json > "$flow"
check "delete-then-create re-analyses" t "Recreated Agent"

# the directory disappears and comes back
mv "$agent" "$work/agents/e2e/.gone"
check "vanished directory marks stale" t "stale"
mv "$work/agents/e2e/.gone" "$agent"
sed -i 's/"name": "Recreated Agent"/"name": "Returned Agent"/' "$flow"
check "directory back is watched again" t "Returned Agent"

# the watcher watches what the review read: a credential written into a
# sibling file, and a new .env file, are found without touching the flow
printf 'deploy with ghp_R7dK2mP9xQ4vL8nT3wZ6yB1cF5hJ0sA2eG4i\n' > "$agent/NOTES.md"
check "a new sibling file is scanned" t "literal_credential_in_sibling_file"
printf 'harmless notes\n' > "$agent/NOTES.md"
if wait_gone t "literal_credential_in_sibling_file" 10; then ok "an edited sibling file is re-scanned"; else bad "an edited sibling file is re-scanned" "$(screen t)"; fi
printf 'KEY=1\n' > "$agent/.env"
check "a new .env file is reported" t "package_env_file_forbidden"
rm -f "$agent/.env" "$agent/NOTES.md"
if wait_gone t "package_env_file_forbidden" 10; then ok "removing it clears the finding"; else bad "removing it clears the finding" "$(screen t)"; fi

# keys
tm send-keys -t t '?'
check "? opens help" t "press ? or esc to close"
# the overlay is built from the key bindings: the graph's H/L and g/G and
# the text tabs' space are listed (they were missing from the hand-written one)
check "help lists H/L" t "< > H L"
check "help lists g/G" t "home g"
check "help lists space" t "space        page down"
tm send-keys -t t Escape
if wait_gone t "press ? or esc to close" 5; then ok "esc closes help"; else bad "esc closes help" "$(screen t)"; fi
tm send-keys -t t '/'
tm send-keys -t t -l 'zzz'
check "/ filters findings" t "/zzz"
tm send-keys -t t Escape
# (an ESC immediately followed by a key reads as alt+key: wait for it to land)
if wait_gone t "/zzz" 5; then ok "esc clears the filter"; else bad "esc clears the filter" "$(screen t)"; fi
tm send-keys -t t '2'
check "2 opens Steps" t "Steps"
tm send-keys -t t m
check "m switches to advisory" t "advisory"
tm send-keys -t t m
check "m then switches to full (the dry run)" t "full"
tm send-keys -t t m

# resize
tm resize-window -t t -x 80 -y 24
check "usable at 80x24" t "Returned Agent"

tm send-keys -t t q
end=$((SECONDS + 5)); gone=0
while [ $SECONDS -le $end ]; do
  if ! tm has-session -t t 2>/dev/null; then gone=1; break; fi
  sleep 0.05
done
if [ $gone = 1 ]; then ok "q quits"; else bad "q quits" "$(screen t)"; fi

# --- graph drill-down and the editor hand-off --------------------------------
mkdir -p "$work/bin"
cat > "$work/bin/vim" <<EOS
#!/bin/sh
echo "\$@" > "$work/editor-args"
EOS
chmod +x "$work/bin/vim"
tm new-session -d -s g -x 120 -y 32 "env VISUAL= EDITOR=$work/bin/vim $bin testdata/tui/agents/oastui-tui/subflow-agent"
check "subflow fixture opens" g "Subflow Agent"
tm send-keys -t g j; tm send-keys -t g j
check "moving selects the FlowNode" g "Review  flow"
tm send-keys -t g Enter
check "enter opens the subflow (breadcrumb)" g "Subflow Agent › Review subflow"
check "subflow nodes drawn" g "Check draft"
tm send-keys -t g BSpace
if wait_gone g "› Review subflow" 5; then ok "backspace goes back"; else bad "backspace goes back" "$(screen g)"; fi
tm send-keys -t g e
end=$((SECONDS + 10))
while [ $SECONDS -le $end ] && [ ! -s "$work/editor-args" ]; do sleep 0.05; done
args=$(cat "$work/editor-args" 2>/dev/null)
case "$args" in "+"[0-9]*" "*oas.json) ok "e opens \$EDITOR at file:line ($args)";; *) bad "e opens \$EDITOR at file:line (got: $args)";; esac
check "TUI restored after the editor" g "Subflow Agent"
tm send-keys -t g q

# --- ANSI/OSC in the agent never reaches the terminal -------------------------
tm new-session -d -s a -x 160 -y 40 "$bin testdata/tui/agents/oastui-tui/ansi-agent"
check "ansi fixture opens" a "Evil"
raw=$(tm capture-pane -p -e -t a)
if printf '%s' "$raw" | grep -q 'pwned\|\]0;'; then
  # the text "pwned-title" may be shown as plain text; an OSC must not be
  if printf '%s' "$raw" | grep -qP '\x1b\]'; then bad "no OSC from agent text" "$raw"; else ok "no OSC from agent text"; fi
else
  ok "no OSC from agent text"
fi
title=$(tm display-message -p -t a '#{pane_title}')
case "$title" in *pwned*) bad "window title not hijacked ($title)";; *) ok "window title not hijacked";; esac
tm send-keys -t a q

# --- no PATH, no agent in the directory: the bundled example ------------------
empty="$work/empty"; mkdir -p "$empty"
tm new-session -d -s e -x 120 -y 30 -c "$empty" "$bin"
check "no PATH opens the bundled example" e "bundled example"
tm send-keys -t e q

# --- an agents/ tree: a list to open one from ---------------------------------
tm new-session -d -s l -x 100 -y 24 "$bin testdata/agents"
check "agents/ tree opens the workspace" l "workspace testdata/agents/"
check "the list shows each agent's status" l "● clean"
tm send-keys -t l '?'
check "? opens help in the list" l "esc or ⌫ with nothing"
tm send-keys -t l Escape
if wait_gone l "esc or ⌫ with nothing" 5; then ok "esc closes the list's help"; else bad "esc closes the list's help" "$(screen l)"; fi
tm send-keys -t l Enter
check "enter opens the chosen agent" l "graph:"
tm send-keys -t l Escape
check "esc goes back to the list" l "workspace testdata/agents/"
tm send-keys -t l Enter
check "the agent opens again" l "graph:"
tm send-keys -t l BSpace
check "backspace goes back to the list" l "workspace testdata/agents/"
tm send-keys -t l Enter
check "and again" l "graph:"
tm send-keys -t l q
end=$((SECONDS + 5)); gone=0
while [ $SECONDS -le $end ]; do
  if ! tm has-session -t l 2>/dev/null; then gone=1; break; fi
  sleep 0.05
done
if [ $gone = 1 ]; then ok "q in an agent from the list quits"; else bad "q in an agent from the list quits" "$(screen l)"; fi

# --- a finding read in full, the gate refusal, at 80x24 (issue 13) ----------
fa=tui/testdata/agents/oastui-tui/findings-agent
tm new-session -d -s f -x 80 -y 24 "env VISUAL= EDITOR=/nonexistent/oastui-editor $bin --catalog testdata/.oastui/catalog.json $fa"
check "findings fixture opens with --catalog" f "Findings Agent"
check "the header counts blockers in words" f "✖ 2 blockers  1 warning"
tm send-keys -t f 1
tm send-keys -t f Enter
check "enter reads the finding in full" f '(got "reviewer")'
check "the detail has the rule's doc" f "neither \"childAgent\" nor"
check "the detail has the pointer" f "pointer"
check "the help line says how back" f "⌫ back to the list"
tm send-keys -t f Space
check "space scrolls the detail to its caret" f "^"
tm send-keys -t f Escape
if wait_gone f "pointer" 5; then ok "esc closes the finding"; else bad "esc closes the finding" "$(screen f)"; fi
tm send-keys -t f k
tm send-keys -t f Enter
check "enter on a bucket header folds it" f "▸ Blockers (2)"
tm send-keys -t f Space
check "space unfolds it" f "▾ Blockers (2)"
tm send-keys -t f 4
check "Compiled shows the gate's refusal" f "compile refused: 2 blockers"
check "the refusal is the CLI's JSON" f '"ok": false,'
tm send-keys -t f e
check "a missing editor gives a clear message" f "not found: set \$VISUAL or \$EDITOR"
check "the message keeps the agent name in the header" f "oastui · Findings Agent"
tm send-keys -t f r
check "r says it re-analysed" f "re-analysed at"
tm send-keys -t f q

# --- an editor oastui does not know gets +LINE FILE --------------------------
cat > "$work/bin/myeditor" <<EOS
#!/bin/sh
echo "\$@" > "$work/editor-args2"
EOS
chmod +x "$work/bin/myeditor"
tm new-session -d -s u -x 120 -y 32 "env VISUAL= EDITOR=$work/bin/myeditor $bin testdata/tui/agents/oastui-tui/subflow-agent"
check "subflow fixture opens (unknown editor)" u "Subflow Agent"
tm send-keys -t u e
end=$((SECONDS + 10))
while [ $SECONDS -le $end ] && [ ! -s "$work/editor-args2" ]; do sleep 0.05; done
args=$(cat "$work/editor-args2" 2>/dev/null)
case "$args" in "+"[0-9]*" "*oas.json) ok "unknown editor gets +LINE FILE ($args)";; *) bad "unknown editor gets +LINE FILE (got: $args)";; esac
check "TUI restored after the unknown editor" u "Subflow Agent"
tm send-keys -t u q

# --- a fix from the TUI (issue 14): package_version_oas_pkg_drift ------------
# The flow's packageVersion differs from package.json's version; f previews
# the engine's fix, enter writes it, the watcher re-analyses, the blocker
# goes; u undoes it; a file changed on disk since the analysis is refused.
fx="$work/agents/e2e/fix-agent"
cp -r testdata/tui/agents/oastui-tui/clean-agent "$fx"
sed -i 's/"type": "leaf",/"type": "leaf",\n      "packageVersion": "0.0.9",/' "$fx/cinatra/oas.json"
fxflow="$fx/cinatra/oas.json"; cp "$fxflow" "$work/fix-before.json"
tm new-session -d -s x -x 120 -y 32 "$bin $fx"
check "drift agent opens with the blocker" x "package_version_oas_pkg_drift"
tm send-keys -t x 1
tm send-keys -t x f
end=$((SECONDS + 10)); seen=""
while [ $SECONDS -le $end ] && [ -z "$seen" ]; do
  s=$(screen x)
  case "$s" in *"fix preview"*) seen=preview;; *"no fix for package_version_oas_pkg_drift"*) seen=nofix;; esac
  [ -z "$seen" ] && sleep 0.05
done
if [ "$seen" != preview ]; then
  bad "f opens the fix preview" "$(screen x)"
else
  ok "f opens the fix preview"
  check "the row shows the fix mark" x "⚒ package_version_oas_pkg_drift"
  check "the preview offers the authors' fix first" x 'remove metadata.cinatra.packageVersion'
  check "the preview shows the removed line" x '-      "packageVersion": "0.0.9",'
  tm send-keys -t x Enter
  check "enter applies the fix" x "fixed:"
  if wait_gone x "package_version_oas_pkg_drift" 10; then ok "the blocker disappears after the fix"; else bad "the blocker disappears after the fix" "$(screen x)"; fi
  if ! grep -q '"packageVersion"' "$fxflow"; then ok "the file holds the fix (the redundant packageVersion is gone)"; else bad "the file holds the fix" "$(cat "$fxflow")"; fi
  tm send-keys -t x u
  check "u undoes the fix" x "undone:"
  check "the blocker comes back after the undo" x "package_version_oas_pkg_drift"
  if cmp -s "$fxflow" "$work/fix-before.json"; then ok "undo restores the bytes"; else bad "undo restores the bytes" "$(diff "$work/fix-before.json" "$fxflow")"; fi
  # a file changed on disk since the analysis: the fix is refused
  tm send-keys -t x f
  check "f again" x "fix preview"
  printf ' ' >> "$fxflow"
  tm send-keys -t x Enter
  check "a changed file refuses the fix" x "changed on disk since it was analysed"
fi
tm send-keys -t x q

# --- a fix that wires a context slot (issues 14, 33) --------------------------
# A scaffolded leaf declares a slim slot (and its dependency) but no step
# consumes it: the WayFlow loader would refuse to mount it
# (context_slot_mount_refused). f on the selected blocker previews the
# consumer's contextSlotBindings input, enter writes it, the blocker goes and
# the graph shows the step the loader injects at mount, "Resolve notes (at
# mount)", before the consumer.
sl="$work/agents/e2e/slot-agent"
"$bin" new "$sl" >/dev/null
sed -i 's|"type": "leaf",|"type": "leaf",\n      "contextSlots": [{"slotId": "notes", "acceptedArtifactExtensions": ["@acme/notes-artifact"], "selectionMode": "interactive", "resolutionMode": "accumulate", "minItems": 0, "maxItems": 5}],|' "$sl/cinatra/oas.json"
sed -i 's|"kind": "agent",|"kind": "agent",\n    "agentDependencies": {"@cinatra-ai/context-selection-agent": "^0.1.1"},|' "$sl/package.json"
tm new-session -d -s w -x 120 -y 32 "$bin $sl"
check "unwired slot agent opens with the blocker" w "⚒ context_slot_mount_refused"
if screen w | grep -qF "Resolve notes"; then bad "no context step before the fix" "$(screen w)"; else ok "no context step before the fix"; fi
tm send-keys -t w 1
tm send-keys -t w f
check "f previews the slot wiring" w "add the input contextSlotBindings"
check "the preview adds the consumer's bindings input" w '+          "title": "contextSlotBindings",'
tm send-keys -t w Enter
check "enter applies the wiring" w 'fixed: “add the input contextSlotBindings'
if wait_gone w "context_slot_mount_refused" 10; then ok "the slot blocker disappears"; else bad "the slot blocker disappears" "$(screen w)"; fi
check "the graph shows the context step the loader injects" w "Resolve notes (at mount)"
check "the agent is clean after the wiring" w "● clean"
if "$bin" lint "$sl" --fail-on suggestion >/dev/null 2>&1; then ok "the wired agent lints clean"; else bad "the wired agent lints clean" "$("$bin" lint "$sl" 2>&1)"; fi
tm send-keys -t w q

# --- the Prompt and Run tabs on the bundled example (issues 16, 17) --------
# The graph's selection is read from the Node tab (3), which names the
# selected node's id; the side tabs keep their state while another is shown.
selected() { # selected NAME SESSION ID: the Node tab shows node ID
  local end=$((SECONDS + 10))
  while [ $SECONDS -le $end ]; do
    if screen "$2" | grep -qE "│ id +$3 "; then ok "$1"; return; fi
    sleep 0.05
  done
  bad "$1" "$(screen "$2")"
}
tm new-session -d -s pr -x 120 -y 32 "$bin tui/example/agent"
check "example opens with its graph" pr "Collect merged changes  api"
tm send-keys -t pr G k 6   # the graph has the focus: last node (Done), up to notify, Prompt tab
check "Prompt shows notify's step and name" pr "2. Announce the release"
check "Prompt shows the model and the token bar" pr "/ 128000 window"
check "Prompt shows the placeholder's provenance" pr "{{ releaseUrl }} ← edge from publish.releaseUrl"
check "Prompt shows the rendered prompt with the sample" pr "sentences about the release at <string:releaseUrl> and link to"
check "Prompt shows the budget table" pr "2   notify"
tm send-keys -t pr Enter
check "enter leaves the LLM node for its feeder" pr "Publish release notes sends no prompt to a model"
check "the tab names the way back" pr "⌫ back to Announce the release (notify)"
tm send-keys -t pr 3
selected "the graph selects the feeding node (publish)" pr publish
tm send-keys -t pr 6 BSpace
check "⌫ goes back to the LLM node" pr "{{ releaseUrl }} ← edge from publish.releaseUrl"
if wait_gone pr "⌫ back to" 5; then ok "nothing more to go back to"; else bad "nothing more to go back to" "$(screen pr)"; fi
tm send-keys -t pr 3
selected "the graph selects notify again" pr notify
# write_notes, the bridge node inside the Draft release notes subflow
tm send-keys -t pr Tab g j j j j Enter j 6
check "Prompt shows write_notes inside the subflow" pr "1. Write release notes"
check "its placeholder comes from the subflow's run input" pr "{{ changes }} ← run input changes (required, hidden)"
tm send-keys -t pr Enter
check "enter selects the subflow's StartNode" pr "Inputs sends no prompt to a model"
check "the way back names write_notes" pr "⌫ back to Write release notes (write_notes)"
tm send-keys -t pr BSpace
check "⌫ goes back to write_notes" pr "1. Write release notes"
tm send-keys -t pr Tab BSpace 6  # the graph back to the top-level flow

tm send-keys -t pr 7
check "Run lists the explored paths" pr "explored 4 of 4 paths"
check "Run starts at the first step" pr "step 1/21 · scope_gate →"
tm send-keys -t pr Right Right
check "→ steps forward (step and node)" pr "← scope_gate · step 3/21 · context_styleContext →"
check "the step's values are shown" pr "3. collect_changes (ApiNode)"
tm send-keys -t pr 3
selected "the graph follows the step" pr collect_changes
tm send-keys -t pr 7 Left
check "← steps back" pr "← start · step 2/21 · collect_changes →"
tm send-keys -t pr 3
selected "the graph follows back" pr scope_gate
tm send-keys -t pr 7 Down
check "↓ picks path 2" pr "›2  end at end · 20 steps"
check "path 2 starts at its first step" pr "step 1/20 · scope_gate →"
tm send-keys -t pr m m
check "m twice: the header shows mode full" pr "● clean · full ·"
check "the help line offers the next mode" pr "m deterministic"
check "the Run tab keeps path 2" pr "›2  end at end · 20 steps"
tm send-keys -t pr q

# --- the dry run's child agents are watched (issue 17) -----------------------
# orchestrator-agent's brief_flow runs the child agent @oastui/gate-agent.
# Missing at first (a stub); it appears where the look-up looked, then is
# edited: each time the parent's dry run (Run tab) runs again.
orch="$work/agents/e2e/orchestrator-agent"
cp -r testdata/agents/oastui/orchestrator-agent "$orch"
cp -r testdata/agents/oastui/gate-agent "$work/gate-agent"
sed -i 's/"$component_ref": "brief-subflow"/"$component_ref": "gone"/' "$orch/cinatra/oas.json"
tm new-session -d -s ch -x 120 -y 32 "$bin $orch"
check "orchestrator opens" ch "Research Orchestrator"
tm send-keys -t ch 7
check "without the child its FlowNode is a stub" ch "1  end at end · 11 steps"
mv "$work/gate-agent" "$work/agents/gate-agent"
check "the child appearing re-runs the dry run" ch "1  end at end · 16 steps"
tm send-keys -t ch Right Right Right Right
check "the Run tab steps into the child" ch "5. save_brief (ApiNode) in gate-agent-flow"
sed -i 's/save_brief/store_brief/g' "$work/agents/gate-agent/cinatra/oas.json"
check "editing the child re-runs the dry run" ch "5. store_brief (ApiNode) in gate-agent-flow"
tm send-keys -t ch q

# --- a node the nodes list lacks while edges reach it (issue 28) -------------
# The compiler still makes it a step (it walks the edges); the graph cannot
# draw it: the graph pane and the Steps tab both say so, read from one model.
ex="$work/agents/e2e/example-agent"
cp -r testdata/agents/oastui/example-agent "$ex"
tm new-session -d -s nd -x 140 -y 40 "$bin $ex"
check "example opens" nd "Collect merged changes  api"
sed -z 's/    {\n      "$component_ref": "notify"\n    },\n//' "$ex/cinatra/oas.json" > "$ex/cinatra/oas.json.tmp"
mv "$ex/cinatra/oas.json.tmp" "$ex/cinatra/oas.json"
check "the graph names the compiled step it cannot draw" nd "notify: compiled, not drawn"
tm send-keys -t nd 2
check "the Steps tab says the same" nd "notify (not in the graph"
tm send-keys -t nd q

# --- the sizes terminals open at: 80×24 and 100×30 (issue 28) ----------------
# The example agent: whole tab names (no Fin│Ste), graph boxes whole (the
# widest box's label is cut inside it), the Prompt tab's budget scrolling.
for size in 80x24 100x30; do
  x=${size%x*}; y=${size#*x}
  tm new-session -d -s "z$x" -x "$x" -y "$y" "$bin testdata/agents/oastui/example-agent"
  check "$size: the example opens" "z$x" "Release Notes Agent"
  check "$size: tab names are whole" "z$x" "Findings│Steps│Node"
  if screen "z$x" | grep -qF "Fin│Ste"; then bad "$size: no cut tab names" "$(screen "z$x")"; else ok "$size: no cut tab names"; fi
  tm send-keys -t "z$x" 6
  check "$size: the Prompt tab lists the LLM steps" "z$x" "LLM steps"
  tm send-keys -t "z$x" q
done

# --- a PATH that is not an agent: message and exit 2 --------------------------
out=$("$bin" "$empty" 2>&1); rc=$?
if [ $rc = 2 ] && printf '%s' "$out" | grep -q "not an agent"; then ok "not an agent: exit 2 with a message"; else bad "not an agent: exit 2 with a message (rc=$rc: $out)"; fi
out=$("$bin" "$work/nope" 2>&1); rc=$?
if [ $rc = 2 ]; then ok "missing path: exit 2"; else bad "missing path: exit 2 (rc=$rc: $out)"; fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
