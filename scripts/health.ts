// `npm run health [-- --json]`: whether enquiries are reaching the company, read from the site's
// database (DATABASE_URL). Exits 1 when unhealthy, so a cron job or a monitor can act on it.
import { parseArgs } from 'node:util';
import { getDb } from '@/server/db';
import { checkEnquiryHealth } from '@/server/enquiries/health';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const health = await checkEnquiryHealth(getDb);
const minutes = (seconds: number | null) => (seconds === null ? '-' : `${Math.floor(seconds / 60)} min ${seconds % 60} s`);
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
    ].join('\n'),
  );
}
(await getDb().catch(() => null))?.close();
process.exit(health.healthy ? 0 : 1);
