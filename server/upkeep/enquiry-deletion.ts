import 'server-only';
import type { Client } from '@libsql/client';
import { inArray, type SQL } from 'drizzle-orm';
import { config } from '@/server/base/config.mjs';
import { orm, writeBatch } from '@/server/base/db';
import {
  claimLinkUses,
  claimStageChanges,
  enquiries,
  enquiryNotifications,
  enquiryPhotos,
  surveyAppointmentChanges,
  surveyAppointments,
  webhookEvents,
} from '@/server/base/db-schema';
import { deleteDryingRecords } from '@/server/claims/drying/record';
import { deleteIssuedDocuments } from '@/server/claims/drying/issued-documents';
import { removeSavedMessages } from '@/server/delivery/mailer';
import { photoFoldersOf, photosRoot, removePhotoFiles } from '@/server/ledger/photo-store';

type BatchQuery = Parameters<typeof writeBatch>[1][number];

/**
 * Deletes the enquiries `where` selects with everything that hangs off them (photos, e-mail jobs even
 * if still pending, the CRM's events, stage changes, link uses, the drying record, the documents
 * issued: their numbers stay, for their verification links), in one transaction
 * with `alongside`; then their photos' files and the messages the folder mailer saved for them (a crash
 * in between leaves files no row points at, never a row without its file). Erasure and retention both
 * delete this way, so a table added later is deleted by both or by neither.
 */
export async function deleteEnquiries(
  db: Client,
  where: SQL,
  options: { photosRoot?: string; outboxDir?: string; alongside?: readonly BatchQuery[]; now?: number } = {},
): Promise<{ enquiries: number; emails: number; photos: number; alongside: number[] }> {
  const theirs = orm(db).select({ id: enquiries.id }).from(enquiries).where(where);
  const ids = (await theirs).map((row) => row.id);
  const folders = await photoFoldersOf(db, where);
  const alongside = options.alongside ?? [];
  const results = await writeBatch(db, [
    orm(db).delete(enquiryPhotos).where(inArray(enquiryPhotos.enquiryId, theirs)),
    orm(db).delete(enquiryNotifications).where(inArray(enquiryNotifications.enquiryId, theirs)),
    orm(db).delete(webhookEvents).where(inArray(webhookEvents.enquiryId, theirs)),
    orm(db).delete(claimStageChanges).where(inArray(claimStageChanges.enquiryId, theirs)),
    orm(db).delete(claimLinkUses).where(inArray(claimLinkUses.enquiryId, theirs)),
    orm(db).delete(surveyAppointmentChanges).where(inArray(surveyAppointmentChanges.enquiryId, theirs)),
    orm(db).delete(surveyAppointments).where(inArray(surveyAppointments.enquiryId, theirs)),
    ...deleteDryingRecords(db, theirs),
    deleteIssuedDocuments(db, theirs, options.now ?? Date.now()),
    orm(db).delete(enquiries).where(where),
    ...alongside,
  ]);
  await removePhotoFiles(options.photosRoot ?? photosRoot(), folders);
  await removeSavedMessages(options.outboxDir ?? config().enquiries.outboxDir, ids);
  const enquiriesAt = results.length - alongside.length - 1;
  return {
    photos: results[0]?.rowsAffected ?? 0,
    emails: results[1]?.rowsAffected ?? 0,
    enquiries: results[enquiriesAt]?.rowsAffected ?? 0,
    alongside: results.slice(enquiriesAt + 1).map((result) => result.rowsAffected),
  };
}
