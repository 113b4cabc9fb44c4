#!/usr/bin/env bash
# The smoke set, run by the test command under the supported Node line that did not run the whole suite
# (whichever `node` is first on PATH): both production builds, then the browser tests tagged @smoke
# (every route, an enquiry with phone photos to the SMTP fake, the form without JavaScript, the
# digest's dry run and send) and the unit tests of backup and restore, the build steps and the server
# side of browser-only code.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NEXT_TELEMETRY_DISABLED=1
echo "Smoke set under Node $(node --version)"

npx vitest run server/upkeep/backup.test.ts scripts/site lib/browser.test.ts lib/api-client.test.ts scripts/node

npx tsx scripts/test/build-for-tests.ts

npx playwright test --grep @smoke
