#!/usr/bin/env bash
# The quick loop (`npm run test:quick`): types, lint and format of what changed, the unit tests that
# import what changed, and the browser specs that cover it (scripts/test/quick-specs.mjs) against the
# build they need, usually one. What changed: the working tree and every commit since the branch left
# main (QUICK_BASE names another starting point). It never replaces the whole command (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
export NEXT_TELEMETRY_DISABLED=1
source scripts/test/phases.sh

export PATH="$(node scripts/node/supported-node.mjs bin):$PATH"
base="${QUICK_BASE:-$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)}"
mapfile -t changed < <({ git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u | while read -r file; do [ -e "$file" ] && echo "$file"; done)
echo "== ${#changed[@]} files changed since $(git rev-parse --short "$base")"
if [ "${#changed[@]}" -eq 0 ]; then
  echo 'Nothing changed: nothing to test.'
  exit 0
fi
mapfile -t code < <(printf '%s\n' "${changed[@]}" | grep -E '\.(ts|tsx|mjs|js)$' || true)
mapfile -t specs < <(node scripts/test/quick-specs.mjs "${changed[@]}")

TEST_BUILDS="$(node scripts/test/quick-specs.mjs --builds "${specs[@]}")"
export TEST_BUILDS

failed=()
# A phase's command runs as the left side of `||`, where `set -e` does not apply: each step says so itself.
check_change() {
  npx tsc --noEmit || return 1
  if [ "${#code[@]}" -gt 0 ]; then npx eslint --max-warnings 0 --no-warn-ignored "${code[@]}" || return 1; fi
  npx prettier --check --ignore-unknown "${changed[@]}"
}
start_phase 'Types, lint and format of the change' check_change
start_phase 'Unit tests of the change' npx vitest run --changed "$base" --passWithNoTests
if [ "${#specs[@]}" -gt 0 ]; then
  echo "== Browser specs that cover the change (build: $TEST_BUILDS)"
  printf '  %s\n' "${specs[@]}"
  if phase "Build ($TEST_BUILDS)" npx tsx scripts/test/build-for-tests.ts; then
    phase 'Browser specs of the change' npx playwright test "${specs[@]}" || failed+=('browser specs')
  else
    failed+=(build)
  fi
else
  echo '== No browser spec covers the change'
fi
await_phase 'Types, lint and format of the change' || failed+=('types, lint and format')
await_phase 'Unit tests of the change' || failed+=('unit tests')
phase_table
if [ "${#failed[@]}" -gt 0 ]; then
  echo "== FAILED: ${failed[*]}"
  exit 1
fi
