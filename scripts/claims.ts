// `npm run claims -- --revoke HC-ABC-DEF`, `--rotate-links` and `--staff-link HC-ABC-DEF`: a claim's
// signed links (the customer's status link, the company's staff link), in the site's database
// (DATABASE_URL). What it does: scripts/support/claims-command.ts.
import { claimsMain } from './support/claims-command';
import { processIo } from './support/command-io';

process.exit(await claimsMain(process.argv.slice(2), processIo));
