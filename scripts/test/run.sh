#!/usr/bin/env bash
# Every test, on the Node.js lines the site supports (docs/testing.md). Under this machine's Node when it
# is a supported line, otherwise under the deploy line (.node-version) from the npm registry: lint, format
# and every unit test beside the two production builds (the production configuration's type-checks the
# whole program); once all of those pass, every browser test, the two builds' specs side by side, beside
# the other supported line's lane (its own build of the production configuration and the smoke set,
# scripts/test/smoke.sh, in folders and on ports of its own). Ends with the phases and their seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NEXT_TELEMETRY_DISABLED=1
source scripts/test/phases.sh

phase 'Debian packages (apt when missing)' bash scripts/test/ensure-apt-tools.sh

node_binaries() {
  MAIN_BIN="$(node scripts/node/supported-node.mjs bin)"
  OTHER_BIN="$(node scripts/node/supported-node.mjs bin --other)"
}
phase 'Node binaries (npm registry when missing)' node_binaries
export PATH="$MAIN_BIN:$PATH"
MAIN_VERSION="$(node --version)"
OTHER_VERSION="$("$OTHER_BIN/node" --version)"
# Read before the browser tests run, so the last lines name what they ran.
BROWSERS="$(source scripts/test/browsers.sh && describe_browsers)"
echo "== Node $MAIN_VERSION runs the whole suite ($MAIN_BIN); Node $OTHER_VERSION the other line's lane ($OTHER_BIN)"

failed=()
# The type check is the production-configuration build's own (scripts/test/build-for-tests.ts).
start_phase "Lint and format (Node $MAIN_VERSION)" bash -c 'npx eslint . --max-warnings 0 && npx prettier --check .'
start_phase "Unit tests (Node $MAIN_VERSION)" npx vitest run
start_live_phase "Production builds and type check (Node $MAIN_VERSION)" npx tsx scripts/test/build-for-tests.ts
await_phase "Production builds and type check (Node $MAIN_VERSION)" || failed+=('production builds and type check')
# The unit tests end before the browser tests start: several wait on real sockets, processes and timers,
# and two CPUs shared with two browsers, their servers and another build starve them past their limits.
await_phase "Lint and format (Node $MAIN_VERSION)" || failed+=('lint and format')
await_phase "Unit tests (Node $MAIN_VERSION)" || failed+=('unit tests')
if [ "${#failed[@]}" -eq 0 ]; then
  start_live_phase "Browser tests (Node $MAIN_VERSION)" npx playwright test
  start_phase "Other line: build and smoke set (Node $OTHER_VERSION)" \
    env PATH="$OTHER_BIN:$PATH" TEST_LANE=other-line TEST_PORT_OFFSET=1000 NEXT_BUILD_TYPECHECK=off bash scripts/test/smoke.sh
  # The browser tests' lines come as they run; the other line's whole, after them.
  await_phase "Browser tests (Node $MAIN_VERSION)" || failed+=('browser tests')
  await_phase "Other line: build and smoke set (Node $OTHER_VERSION)" || failed+=("Node $OTHER_VERSION")
fi

echo "== Node lines"
echo "Node $MAIN_VERSION: types (in the production-configuration build), lint, every unit test, both production builds, every browser test"
echo "Node $OTHER_VERSION: the production-configuration build, the smoke set (every route, a phone's claim with photos to the SMTP fake, the form without JavaScript, the digest's dry run and send, the build's lack of test-only routes) and the unit tests of backup and restore, the build steps, the Node-line choice, the server-side browser globals, and the portfolio's access rules, the drying documents' budget, the photos sent ahead of a kept claim, and the survey booking's calendar, places and changes"

echo "== Browsers, drivers and proxies the browser tests ran"
echo "$BROWSERS"

phase_table
node scripts/test/test-counts.mjs "$PHASE_LOGS" || true
if [ "${#failed[@]}" -gt 0 ]; then
  echo "== FAILED: ${failed[*]}"
  exit 1
fi
