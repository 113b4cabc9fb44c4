#!/usr/bin/env bash
# The smoke set, run by the test command under the supported Node line that did not run the whole suite
# (whichever `node` is first on PATH), in a lane of its own (TEST_LANE, TEST_PORT_OFFSET) so it runs beside
# the whole suite: the unit tests of backup and restore, the build steps, the Node-line choice, the
# server side of browser-only code and the budgets and access rules an attacker meets (the portfolio's
# links, sessions and requests, the drying documents' budget, the photos sent ahead of a kept claim) and the survey booking's calendar,
# places and changes; the production-configuration build; then the browser tests tagged
# @smoke against it (every route, a phone's claim with photos to the SMTP fake, the form without
# JavaScript, the digest's dry run and send, the build's lack of test-only routes).
set -euo pipefail
cd "$(dirname "$0")/../.."
export NEXT_TELEMETRY_DISABLED=1 TEST_BUILDS=production
echo "Smoke set under Node $(node --version)"

npx vitest run server/upkeep/backup.test.ts scripts/site lib/browser.test.ts lib/api-client.test.ts scripts/node \
  server/portfolio server/claims/drying/documents.test.ts server/intake/staged-photos.test.ts server/intake/kept-claim-photos.test.ts \
  lib/offline/protocol.test.ts lib/survey-windows.test.ts server/claims/survey-booking.test.ts server/crm/crm-window-events.test.ts

npx tsx scripts/test/build-for-tests.ts

npx playwright test --grep @smoke
