#!/usr/bin/env bash
# Every test, on the Node.js lines the site supports: the whole suite (types, lint, unit tests, both
# production builds, browser tests) under this machine's Node when it is a supported line, otherwise
# under the deploy line (.node-version) from the npm registry; then both production builds and the smoke
# set (scripts/test/smoke.sh) under the other supported line.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NEXT_TELEMETRY_DISABLED=1

bash scripts/test/ensure-apt-tools.sh

MAIN_BIN="$(node scripts/node/supported-node.mjs bin)"
OTHER_BIN="$(node scripts/node/supported-node.mjs bin --other)"
export PATH="$MAIN_BIN:$PATH"
MAIN_VERSION="$(node --version)"
OTHER_VERSION="$("$OTHER_BIN/node" --version)"
# Read before the browser tests run, so the last lines name what they ran.
BROWSERS="$(source scripts/test/browsers.sh && describe_browsers)"
echo "== Node $MAIN_VERSION runs the whole suite ($MAIN_BIN)"

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

echo "== Node $OTHER_VERSION: production builds and the smoke set ($OTHER_BIN)"
PATH="$OTHER_BIN:$PATH" bash scripts/test/smoke.sh

echo "== Node lines"
echo "Node $MAIN_VERSION: types, lint, every unit test, both production builds, every browser test"
echo "Node $OTHER_VERSION: both production builds, the smoke set (every route, an enquiry with photos to the fake SMTP server, the form without JavaScript, the digest's dry run and send, backup and restore, the build steps, the server-side browser globals)"

echo "== Browsers, drivers and proxies the browser tests ran"
echo "$BROWSERS"
