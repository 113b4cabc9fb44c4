import 'server-only';
import type { Client } from '@libsql/client';
import { lt } from 'drizzle-orm';
import { ENQUIRY_RETENTION_MONTHS, ERROR_LOG_RETENTION_DAYS } from '@/content/privacy';
import { orm } from '@/server/base/db';
import { enquiries, errorLogs } from '@/server/base/db-schema';
import { photosRoot, removeOrphanPhotoFolders } from '@/server/ledger/photo-store';
import { deleteEnquiries } from '@/server/upkeep/enquiry-deletion';
import { endedPortfolioAccess, expiredPortfolioPeople } from '@/server/upkeep/portfolio-people';

const RETENTION_INTERVAL_MS = 24 * 60 * 60_000;

/** The moment before which enquiries are past the period the privacy page states. */
function enquiryCutoff(now: number, months = ENQUIRY_RETENTION_MONTHS): number {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff.getTime();
}

function errorLogCutoff(now: number, days = ERROR_LOG_RETENTION_DAYS): string {
  return new Date(now - days * 24 * 60 * 60_000).toISOString();
}

/**
 * Deletes what the privacy page says is not kept: enquiries (their personal data and client address)
 * older than ENQUIRY_RETENTION_MONTHS with their outbox jobs, drying records and photos (and photo folders no enquiry
 * points at, and the messages the folder mailer saved for them), and error logs older than
 * ERROR_LOG_RETENTION_DAYS; and the portfolio's access log entries older than the enquiries' period, with
 * each person given a portfolio link who has not been sent, used or revoked it in that period, and
 * portfolio sessions and links that can no longer open anything or offer a new one. One
 * transaction; returns how many rows of each went.
 */
export async function purgeExpired(
  db: Client,
  now: number = Date.now(),
  options: { photosRoot?: string; outboxDir?: string } = {},
): Promise<{ enquiries: number; errorLogs: number; portfolioPeople: number }> {
  const root = options.photosRoot ?? photosRoot();
  const cutoff = enquiryCutoff(now);
  const deleted = await deleteEnquiries(db, lt(enquiries.receivedMs, cutoff), {
    photosRoot: root,
    outboxDir: options.outboxDir,
    now,
    alongside: [
      orm(db)
        .delete(errorLogs)
        .where(lt(errorLogs.receivedAt, errorLogCutoff(now))),
      ...expiredPortfolioPeople(db, cutoff),
      ...endedPortfolioAccess(db, now),
    ],
  });
  await removeOrphanPhotoFolders(db, root, now);
  return { enquiries: deleted.enquiries, errorLogs: deleted.alongside[0] ?? 0, portfolioPeople: deleted.alongside[3] ?? 0 };
}

/** Runs purgeExpired now and then daily in this process (the server); the timer never holds it open. */
export function startRetentionJob(openDb: () => Promise<Client>, log: (line: string) => void = console.log) {
  const run = async () => {
    try {
      const purged = await purgeExpired(await openDb());
      if (purged.enquiries + purged.errorLogs + purged.portfolioPeople > 0)
        log(
          `[retention] deleted ${purged.enquiries} expired enquiries, ${purged.errorLogs} old error logs and ${purged.portfolioPeople} unused portfolio links`,
        );
    } catch (error) {
      console.error('[retention] could not delete expired data:', error instanceof Error ? error.message : error);
    }
  };
  void run();
  const timer = setInterval(() => void run(), RETENTION_INTERVAL_MS);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
