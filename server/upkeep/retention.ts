import 'server-only';
import type { Client } from '@libsql/client';
import { inArray, lt } from 'drizzle-orm';
import { ENQUIRY_RETENTION_MONTHS, ERROR_LOG_RETENTION_DAYS } from '@/content/privacy';
import { orm, writeBatch } from '@/server/db';
import {
  claimLinkUses,
  claimStageChanges,
  enquiries,
  enquiryNotifications,
  enquiryPhotos,
  errorLogs,
  webhookEvents,
} from '@/server/db-schema';
import { config } from '@/server/config.mjs';
import { deleteDryingRecords } from '@/server/claims/drying-record';
import { removeSavedMessages } from '@/server/delivery/mailer';
import { photoFoldersOf, photosRoot, removeOrphanPhotoFolders, removePhotoFiles } from '@/server/ledger/photo-store';

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
 * ERROR_LOG_RETENTION_DAYS. One transaction; returns how many rows of each went.
 */
export async function purgeExpired(
  db: Client,
  now: number = Date.now(),
  options: { photosRoot?: string; outboxDir?: string } = {},
): Promise<{ enquiries: number; errorLogs: number }> {
  const before = enquiryCutoff(now);
  const expired = orm(db).select({ id: enquiries.id }).from(enquiries).where(lt(enquiries.receivedMs, before));
  const expiredIds = (await expired).map((row) => row.id);
  // Their photos' folders go after the rows (a crash in between leaves a folder no row points at).
  const folders = await photoFoldersOf(db, lt(enquiries.receivedMs, before));
  const results = await writeBatch(db, [
    orm(db).delete(enquiryPhotos).where(inArray(enquiryPhotos.enquiryId, expired)),
    orm(db).delete(enquiryNotifications).where(inArray(enquiryNotifications.enquiryId, expired)),
    orm(db).delete(webhookEvents).where(inArray(webhookEvents.enquiryId, expired)),
    orm(db).delete(claimStageChanges).where(inArray(claimStageChanges.enquiryId, expired)),
    orm(db).delete(claimLinkUses).where(inArray(claimLinkUses.enquiryId, expired)),
    ...deleteDryingRecords(db, expired),
    orm(db).delete(enquiries).where(lt(enquiries.receivedMs, before)),
    orm(db)
      .delete(errorLogs)
      .where(lt(errorLogs.receivedAt, errorLogCutoff(now))),
  ]);
  const root = options.photosRoot ?? photosRoot();
  await removePhotoFiles(root, folders);
  await removeOrphanPhotoFolders(db, root, now);
  // The copies the folder mailer saved (no SMTP_URL) go with their enquiries.
  await removeSavedMessages(options.outboxDir ?? config().enquiries.outboxDir, expiredIds);
  return { enquiries: results.at(-2)?.rowsAffected ?? 0, errorLogs: results.at(-1)?.rowsAffected ?? 0 };
}

/** Runs purgeExpired now and then daily in this process (the server); the timer never holds it open. */
export function startRetentionJob(openDb: () => Promise<Client>, log: (line: string) => void = console.log) {
  const run = async () => {
    try {
      const purged = await purgeExpired(await openDb());
      if (purged.enquiries + purged.errorLogs > 0)
        log(`[retention] deleted ${purged.enquiries} expired enquiries and ${purged.errorLogs} old error logs`);
    } catch (error) {
      console.error('[retention] could not delete expired data:', error instanceof Error ? error.message : error);
    }
  };
  void run();
  const timer = setInterval(() => void run(), RETENTION_INTERVAL_MS);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
