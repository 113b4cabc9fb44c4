// `npm run appointments -- --capacity 3 --from 2026-12-01`, `--block 2026-12-24 --reason "…"` and
// `--list`: the survey windows homeowners book on the status page, in the site's database
// (DATABASE_URL). What it does: scripts/support/appointments-command.ts.
import { appointmentsMain } from './support/appointments-command';
import { processIo } from './support/command-io';

process.exit(await appointmentsMain(process.argv.slice(2), processIo));
