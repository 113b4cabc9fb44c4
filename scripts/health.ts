// `npm run health [-- --json]`: whether enquiries are reaching the company, read from the site's
// database (DATABASE_URL). Exits 1 when unhealthy. What it prints: scripts/support/health-command.ts.
import { processIo } from './support/command-io';
import { healthMain } from './support/health-command';

process.exit(await healthMain(process.argv.slice(2), processIo));
