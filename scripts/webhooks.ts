// `npm run webhooks -- --list` and `npm run webhooks -- --resend HC-ABC-DEF`: the events the site sends
// the company's CRM (CRM_WEBHOOK_URL), in the site's database (DATABASE_URL). What it does:
// scripts/support/webhooks-command.ts.
import { webhooksMain } from './support/webhooks-command';
import { processIo } from './support/command-io';

process.exit(await webhooksMain(process.argv.slice(2), processIo));
