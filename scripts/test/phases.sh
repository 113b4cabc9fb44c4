# Sourced by the test command: runs its phases, some side by side, and ends with a table of them.
#
#   phase NAME COMMAND…        runs a phase in the foreground, its output shown as it comes
#   start_phase NAME COMMAND…  starts a phase in the background, its output kept in $PHASE_LOGS/NAME.log
#                              and shown whole when it is awaited
#   start_live_phase NAME C…   the same, its output also shown as it comes (one such phase at a time)
#   await_phase NAME           waits for a background phase, then shows its output; 1 if it failed
#   phase_table                the phases with when each started and ended, in seconds from the start
#
# The output of all but one of the phases that run side by side is shown whole when it ends, so their
# lines never interleave.

# Not under test-results/, which Playwright empties when it starts.
PHASE_LOGS="${PHASE_LOGS:-test-phases}"
rm -rf "$PHASE_LOGS"
mkdir -p "$PHASE_LOGS"
PHASES_STARTED_AT="$(date +%s)"
declare -A PHASE_PIDS=()
PHASE_ROWS=()
LIVE_PHASES=()

phase_file() {
  echo "$PHASE_LOGS/$(echo "$1" | tr -c 'A-Za-z0-9\n' '-').log"
}

# Records one row of the table: name, start and end in seconds from the start, and the outcome.
record_phase() {
  local name="$1" started="$2" ended="$3" status="$4"
  PHASE_ROWS+=("$name|$((started - PHASES_STARTED_AT))|$((ended - PHASES_STARTED_AT))|$status")
}

phase() {
  local name="$1" started status=0
  shift
  started="$(date +%s)"
  echo "== $name"
  "$@" || status=$?
  record_phase "$name" "$started" "$(date +%s)" "$status"
  return "$status"
}

start_phase() {
  local name="$1" file
  shift
  file="$(phase_file "$name")"
  echo "== $name: started (its output when it ends)"
  (
    started="$(date +%s)"
    status=0
    "$@" >"$file" 2>&1 </dev/null || status=$?
    echo "$started $(date +%s) $status" >"$file.times"
    exit "$status"
  ) &
  PHASE_PIDS["$name"]=$!
}

start_live_phase() {
  local name="$1" file
  shift
  file="$(phase_file "$name")"
  echo "== $name: started"
  (
    set -o pipefail
    started="$(date +%s)"
    status=0
    "$@" 2>&1 </dev/null | tee "$file" || status=$?
    echo "$started $(date +%s) $status" >"$file.times"
    exit "$status"
  ) &
  PHASE_PIDS["$name"]=$!
  LIVE_PHASES+=("$name")
}

await_phase() {
  local name="$1" file started ended status
  file="$(phase_file "$name")"
  wait "${PHASE_PIDS[$name]}" || true
  read -r started ended status <"$file.times"
  echo "== $name ($((ended - started)) s, from $((started - PHASES_STARTED_AT)) s to $((ended - PHASES_STARTED_AT)) s)"
  if [[ " ${LIVE_PHASES[*]} " != *" $name "* ]]; then cat "$file"; fi
  record_phase "$name" "$started" "$ended" "$status"
  if [ "$status" != 0 ]; then
    echo "== $name FAILED (exit $status)"
    return 1
  fi
}

phase_table() {
  local name from to status total
  total=$(($(date +%s) - PHASES_STARTED_AT))
  echo "== Phases (seconds from the start of the test command; phases that overlap ran side by side)"
  printf '| %-46s | %5s | %5s | %7s | %-6s |\n' phase from to seconds result
  printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..48})" ------- ------- --------- --------
  while IFS='|' read -r name from to status; do
    printf '| %-46s | %5s | %5s | %7s | %-6s |\n' "$name" "$from" "$to" "$((to - from))" "$([ "$status" = 0 ] && echo passed || echo failed)"
  done < <(printf '%s\n' "${PHASE_ROWS[@]}" | sort -s -t'|' -k2,2n)
  printf '| %-46s | %5s | %5s | %7s | %-6s |\n' 'total' 0 "$total" "$total" ''
}
