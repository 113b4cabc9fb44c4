// `npm run health [-- --json]`: whether enquiries are reaching the company, read from the site's
// database (DATABASE_URL). Exits 1 when unhealthy, so a cron job or a monitor can act on it.
import { parseArgs } from 'node:util';
import { webhooksConfigured } from '@/server/crm/webhook-status';
import { digestSettings } from '@/server/reports/digest/schedule';
import { checkEnquiryHealth, type EnquiryHealth } from '@/server/reports/health';
import { configuredPrivatePlaces, scanPrivatePlaces } from '@/server/base/private-files';
import type { Client } from '@libsql/client';
import { config } from '@/server/base/config.mjs';
import { openDatabase } from '@/server/base/db';
import type { CommandIo } from './command-io';

// Every place holding personal data, contents included: anything other users of the machine can read.
const privateFiles = async () =>
  (await scanPrivatePlaces(configuredPrivatePlaces(), { tighten: false, limit: Number.POSITIVE_INFINITY })).wide;

const minutes = (seconds: number | null) => (seconds === null ? '-' : `${Math.floor(seconds / 60)} min ${seconds % 60} s`);

/** The figures as the operator reads them, one per line. */
function healthLines(health: EnquiryHealth): string[] {
  const readable = health.readablePlaces ?? [];
  const claims = health.claims;
  const webhooks = health.webhooks;
  const byStage = claims?.byStage.length ? claims.byStage.map((row) => `${row.stage} ${row.claims}`).join(', ') : 'none';
  return [
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
  ];
}

/** `npm run health` as the operator runs it: the figures (or their JSON), and 0 when healthy, 1 when not. */
export async function healthMain(args: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { json: { type: 'boolean', default: false } } });
  // Opened by the check, so a database that cannot be reached is reported as such rather than thrown.
  let db: Client | undefined;
  const open = async () => {
    const { url, authToken } = config().database;
    return (db = await openDatabase(url, authToken));
  };
  const health = await checkEnquiryHealth(open, { privateFiles, countClaims: true, webhooks: webhooksConfigured() }).finally(() =>
    db?.close(),
  );
  io.log(values.json ? JSON.stringify(health, null, 2) : healthLines(health).join('\n'));
  return health.healthy ? 0 : 1;
}
