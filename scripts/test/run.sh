#!/usr/bin/env bash
# Every test: types, unit tests, then browser tests against a fresh production build.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NEXT_TELEMETRY_DISABLED=1

bash scripts/test/ensure-apt-tools.sh

echo "== Type check"
npx tsc --noEmit

echo "== Lint (ESLint) and format (Prettier)"
npx eslint . --max-warnings 0
npx prettier --check .

echo "== Unit and integration tests"
npx vitest run

echo "== Production build for the browser tests"
npx tsx scripts/test/build-for-tests.ts

echo "== Browser tests"
npx playwright test
