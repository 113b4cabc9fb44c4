// `npm run insurers -- --add "NAME" --domain DOMAIN …`, `--list`, `--link DOMAIN`, `--revoke DOMAIN`,
// `--revoke-address EMAIL`, `--log DOMAIN`: the organisations that instruct the company and their
// portfolio links, in the site's database (DATABASE_URL). `--help` says more.
import { business } from '@/content/business';
import { config } from '@/server/base/config.mjs';
import { getDb } from '@/server/base/db';
import { runInsurersCommand } from './support/insurers-command';

const db = await getDb();
const result = await runInsurersCommand(db, process.argv.slice(2), {
  siteUrl: config().siteUrl,
  now: Date.now(),
  company: business.forInsurers,
});
db.close();
for (const line of result.out) console.log(line);
for (const line of result.err) console.error(line);
process.exit(result.code);
