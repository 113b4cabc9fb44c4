// `npm run health [-- --json]`: whether enquiries are reaching the company, read from the site's
// database (DATABASE_URL). Exits 1 when unhealthy, so a cron job or a monitor can act on it.
import { parseArgs } from 'node:util';
import { webhooksConfigured } from '@/server/crm/webhook-status';
import { getDb } from '@/server/base/db';
import { digestSettings } from '@/server/reports/digest/schedule';
import { checkEnquiryHealth } from '@/server/reports/health';
import { configuredPrivatePlaces, scanPrivatePlaces } from '@/server/base/private-files';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
// Every place holding personal data, contents included: anything other users of the machine can read.
const privateFiles = async () =>
  (await scanPrivatePlaces(configuredPrivatePlaces(), { tighten: false, limit: Number.POSITIVE_INFINITY })).wide;
const health = await checkEnquiryHealth(getDb, { privateFiles, countClaims: true, webhooks: webhooksConfigured() });
const minutes = (seconds: number | null) => (seconds === null ? '-' : `${Math.floor(seconds / 60)} min ${seconds % 60} s`);
const readable = health.readablePlaces ?? [];
const claims = health.claims;
const webhooks = health.webhooks;
const byStage = claims?.byStage.length ? claims.byStage.map((row) => `${row.stage} ${row.claims}`).join(', ') : 'none';
if (values.json) {
  console.log(JSON.stringify(health, null, 2));
} else {
  console.log(
    [
      `status:                         ${health.healthy ? 'healthy' : `UNHEALTHY (${health.problems.join(', ')})`}`,
      `database:                       ${health.database}`,
      `notifications pending:          ${health.pendingNotifications}`,
      `oldest pending:                 ${minutes(health.oldestPendingSeconds)}`,
      `notifications failed for good:  ${health.failedNotifications}${health.failedNotifications > 0 ? ' (npm run enquiries, then --retry-failed)' : ''}`,
      `last successful send:           ${health.lastSentAt ?? 'never'}`,
      `last digest:                    ${health.lastDigestAt ?? 'never'} (${digestSettings().mode})`,
      `claims by stage:                ${claims ? byStage : '-'}`,
      `claims past their next date:    ${claims ? claims.pastNextDate : '-'}${claims && claims.pastNextDate > 0 ? ' (not completed; npm run enquiries lists each with its stage)' : ''}`,
      ...(webhooks
        ? [
            `CRM webhooks waiting:           ${webhooks.pending}`,
            `CRM webhooks failed for good:   ${webhooks.failed}${webhooks.failed > 0 ? ' (npm run webhooks -- --list, then --resend REFERENCE)' : ''}`,
            `oldest undelivered webhook:     ${minutes(webhooks.oldestUndeliveredSeconds)}`,
          ]
        : []),
      `personal data owner-only:       ${readable.length === 0 ? 'yes' : `NO: ${readable.length} place(s) other users can read (the site tightens them at start; chmod go-rwx, or chown to the site's user)`}`,
      ...readable.slice(0, 20).map((place) => `  ${place.mode} ${place.path}`),
      ...(readable.length > 20 ? [`  and ${readable.length - 20} more`] : []),
    ].join('\n'),
  );
}
(await getDb().catch(() => null))?.close();
process.exit(health.healthy ? 0 : 1);
