// `npm run insurers -- --add "NAME" --domain DOMAIN …`, `--list`, `--link DOMAIN`, `--revoke DOMAIN`,
// `--revoke-address EMAIL`, `--log DOMAIN`: the organisations that instruct the company and their
// portfolio links, in the site's database (DATABASE_URL). `--help` says more; what it does:
// scripts/support/insurers-command.ts.
import { insurersMain } from './support/insurers-command';
import { processIo } from './support/command-io';

process.exit(await insurersMain(process.argv.slice(2), processIo));
