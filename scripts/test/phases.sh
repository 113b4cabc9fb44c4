# Sourced by the test command: runs its phases, some side by side, and ends with a table of them.
#
#   phase NAME COMMAND…        runs a phase in the foreground, its output shown as it comes
#   start_phase NAME COMMAND…  starts a phase in the background, its output kept in $PHASE_LOGS/NAME.log
#                              and shown whole when it is awaited
#   start_live_phase NAME C…   the same, its output also shown as it comes (one such phase at a time)
#   await_phase NAME           waits for a background phase, then shows its output; 1 if it failed
#   phase_table                the phases with when each started and ended, in seconds from the start,
#                              the CPU seconds their processes used (user and system, of every
#                              process of the phase that ended and was waited for: a browser or a
#                              server that is killed rather than waited for is not counted), and how
#                              busy the machine's CPUs were while the phase ran (whatever ran them)
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

# Sets CHILDREN_CPU to the CPU seconds, user and system, of this shell's child processes that have
# ended so far, whole seconds. `times` must run in this shell itself: a command substitution or a
# pipeline would run it in a subshell, which has no children of its own.
read_children_cpu() {
  local file="$PHASE_LOGS/.times-$BASHPID"
  times >"$file"
  CHILDREN_CPU="$(tail -1 "$file" | awk '{ total = 0; for (i = 1; i <= 2; i++) { split($i, part, /[ms]/); total += part[1] * 60 + part[2] } printf "%d\n", total }')"
  rm -f "$file"
}

# Prints the machine's CPU time so far, busy and in all, in clock ticks (the first line of /proc/stat).
machine_cpu_ticks() {
  awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6; exit }' /proc/stat
}

# The percentage of the machine's CPU time that was busy between two machine_cpu_ticks readings.
busy_percent() {
  local busy_from total_from busy_to total_to
  read -r busy_from total_from <<<"$1"
  read -r busy_to total_to <<<"$2"
  echo $(((busy_to - busy_from) * 100 / (total_to - total_from > 0 ? total_to - total_from : 1)))
}

# Records one row of the table: name, start and end in seconds from the start, CPU seconds, the outcome.
record_phase() {
  local name="$1" started="$2" ended="$3" status="$4" cpu="$5" busy="$6"
  PHASE_ROWS+=("$name|$((started - PHASES_STARTED_AT))|$((ended - PHASES_STARTED_AT))|$status|$cpu|$busy")
}

phase() {
  local name="$1" started status=0 cpu_before ticks_before
  shift
  started="$(date +%s)"
  ticks_before="$(machine_cpu_ticks)"
  read_children_cpu
  cpu_before="$CHILDREN_CPU"
  echo "== $name"
  "$@" || status=$?
  read_children_cpu
  record_phase "$name" "$started" "$(date +%s)" "$status" "$((CHILDREN_CPU - cpu_before))" "$(busy_percent "$ticks_before" "$(machine_cpu_ticks)")"
  return "$status"
}

start_phase() {
  local name="$1" file
  shift
  file="$(phase_file "$name")"
  echo "== $name: started (its output when it ends)"
  (
    started="$(date +%s)"
    ticks="$(machine_cpu_ticks)"
    status=0
    "$@" >"$file" 2>&1 </dev/null || status=$?
    read_children_cpu
    echo "$started $(date +%s) $status $CHILDREN_CPU $(busy_percent "$ticks" "$(machine_cpu_ticks)")" >"$file.times"
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
    ticks="$(machine_cpu_ticks)"
    status=0
    "$@" 2>&1 </dev/null | tee "$file" || status=$?
    read_children_cpu
    echo "$started $(date +%s) $status $CHILDREN_CPU $(busy_percent "$ticks" "$(machine_cpu_ticks)")" >"$file.times"
    exit "$status"
  ) &
  PHASE_PIDS["$name"]=$!
  LIVE_PHASES+=("$name")
}

await_phase() {
  local name="$1" file started ended status cpu busy
  file="$(phase_file "$name")"
  wait "${PHASE_PIDS[$name]}" || true
  read -r started ended status cpu busy <"$file.times"
  echo "== $name ($((ended - started)) s, from $((started - PHASES_STARTED_AT)) s to $((ended - PHASES_STARTED_AT)) s, $cpu CPU s, CPUs $busy % busy)"
  if [[ " ${LIVE_PHASES[*]} " != *" $name "* ]]; then cat "$file"; fi
  record_phase "$name" "$started" "$ended" "$status" "$cpu" "$busy"
  if [ "$status" != 0 ]; then
    echo "== $name FAILED (exit $status)"
    return 1
  fi
}

phase_table() {
  local name from to status cpu busy total cpu_total=0
  total=$(($(date +%s) - PHASES_STARTED_AT))
  echo "== Phases (seconds from the start of the test command; phases that overlap ran side by side; CPU s:"
  echo "   user and system time of the phase's processes that were waited for; busy: the machine's $(nproc)"
  echo "   CPUs while the phase ran, whatever ran on them)"
  printf '| %-52s | %5s | %5s | %7s | %5s | %5s | %-6s |\n' phase from to seconds 'CPU s' busy result
  printf '|%s|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..54})" ------- ------- --------- ------- ------- --------
  while IFS='|' read -r name from to status cpu busy; do
    cpu_total=$((cpu_total + cpu))
    printf '| %-52s | %5s | %5s | %7s | %5s | %4s%% | %-6s |\n' "$name" "$from" "$to" "$((to - from))" "$cpu" "$busy" "$([ "$status" = 0 ] && echo passed || echo failed)"
  done < <(printf '%s\n' "${PHASE_ROWS[@]}" | sort -s -t'|' -k2,2n)
  printf '| %-52s | %5s | %5s | %7s | %5s | %5s | %-6s |\n' 'total' 0 "$total" "$total" "$cpu_total" '' ''
}
