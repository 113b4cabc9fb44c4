// `npm run digest -- --dry-run [--period YYYY-MM-DD] [--html]` prints the company's digest;
// `npm run digest -- --send` sends the current period's now, through the same code as the server's schedule.
// What it does: scripts/support/digest-command.ts.
import { digestMain } from './support/digest-command';
import { processIo } from './support/command-io';

process.exit(await digestMain(process.argv.slice(2), processIo));
