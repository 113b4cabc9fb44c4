import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq } from 'drizzle-orm';
import { emailKey } from '@/server/base/email-key';
import { orm } from '@/server/base/db';
import { claimLinkUses, claimStageChanges, enquiries, enquiryNotifications, enquiryPhotos } from '@/server/base/db-schema';
import { dryingExportOf } from '@/server/claims/drying/record';
import { issuedDocumentsOf } from '@/server/claims/drying/issued-documents';
import { photosOf } from '@/server/ledger/photo-store';
import { storedEnquiryColumns, type StoredEnquiry } from '@/server/ledger/enquiry-reads';
import { deleteEnquiries } from '@/server/upkeep/enquiry-deletion';
import { erasePortfolioLinkMails, erasePortfolioPeople, portfolioExportOf } from '@/server/upkeep/portfolio-people';

/** How a person's e-mail address is matched: by its one compared form (NFC, case-folded), as stored. */
const sentWith = (email: string) => eq(enquiries.emailKey, emailKey(email));

type PersonalDataExport = {
  email: string;
  exportedAt: string;
  enquiries: (StoredEnquiry &
    Pick<typeof enquiries.$inferSelect, 'clientAddress' | 'disposition' | 'recaptchaScore'> & {
      notification: Pick<typeof enquiryNotifications.$inferSelect, 'status' | 'sentAt'> | null;
      /** The photos sent with it (their files: `npm run enquiries -- --photos ID --out DIR`). */
      photos: Pick<typeof enquiryPhotos.$inferSelect, 'position' | 'originalName' | 'bytes' | 'width' | 'height'>[];
      /** Each change of its claim's stage, by the company's staff page or its CRM. */
      stageChanges: Pick<typeof claimStageChanges.$inferSelect, 'stage' | 'waitingOn' | 'nextDate' | 'note' | 'source' | 'changedAt'>[];
      /** Each use of its claim's signed links, counted per minute (`minute`: when that minute began). */
      linkUses: { link: 'status' | 'update'; use: 'opened' | 'saved' | 'photos'; minute: string; uses: number }[];
      /** Its claim's drying record: each visit with its readings, and the machines placed. */
      drying: Awaited<ReturnType<typeof dryingExportOf>>;
      /** The drying documents issued for its claim: numbers, times and figures as printed. */
      documents: Awaited<ReturnType<typeof issuedDocumentsOf>>;
    })[];
  /** The portfolio links the address was given as one of an instructing organisation's people, with their uses. */
  portfolioLinks: Awaited<ReturnType<typeof portfolioExportOf>>;
};

/**
 * Everything the site holds about an e-mail address (a subject access request): every enquiry sent
 * with it, with the client address, verification and the state of its notification. Error logs hold
 * no contact details (the browser's logger never sends them), so they are not part of it.
 */
export async function exportPersonalData(db: Client, email: string, now: number = Date.now()): Promise<PersonalDataExport> {
  const rows = await orm(db)
    .select({
      ...storedEnquiryColumns,
      clientAddress: enquiries.clientAddress,
      disposition: enquiries.disposition,
      recaptchaScore: enquiries.recaptchaScore,
      notificationStatus: enquiryNotifications.status,
      notificationSentAt: enquiryNotifications.sentAt,
    })
    .from(enquiries)
    .leftJoin(enquiryNotifications, and(eq(enquiryNotifications.enquiryId, enquiries.id), eq(enquiryNotifications.kind, 'notification')))
    .where(sentWith(email))
    .orderBy(enquiries.id);
  return {
    email,
    exportedAt: new Date(now).toISOString(),
    enquiries: await Promise.all(
      rows.map(async ({ notificationStatus, notificationSentAt, ...row }) => ({
        ...row,
        notification: notificationStatus === null ? null : { status: notificationStatus, sentAt: notificationSentAt },
        photos: (await photosOf(db, row.id)).map(({ position, originalName, bytes, width, height }) => ({
          position,
          originalName,
          bytes,
          width,
          height,
        })),
        stageChanges: await orm(db)
          .select({
            stage: claimStageChanges.stage,
            waitingOn: claimStageChanges.waitingOn,
            nextDate: claimStageChanges.nextDate,
            note: claimStageChanges.note,
            source: claimStageChanges.source,
            changedAt: claimStageChanges.changedAt,
          })
          .from(claimStageChanges)
          .where(eq(claimStageChanges.enquiryId, row.id))
          .orderBy(claimStageChanges.changedMs, claimStageChanges.id),
        linkUses: (
          await orm(db)
            .select({ link: claimLinkUses.link, use: claimLinkUses.use, minuteMs: claimLinkUses.minuteMs, uses: claimLinkUses.uses })
            .from(claimLinkUses)
            .where(eq(claimLinkUses.enquiryId, row.id))
            .orderBy(claimLinkUses.minuteMs)
        ).map(({ minuteMs, ...use }) => ({ ...use, minute: new Date(minuteMs).toISOString() })),
        drying: await dryingExportOf(db, row.id),
        documents: await issuedDocumentsOf(db, row.id),
      })),
    ),
    portfolioLinks: await portfolioExportOf(db, email),
  };
}

/**
 * Deletes every enquiry sent with the address, its outbox jobs even if they are still pending, its
 * drying record, its photos and the messages the folder mailer saved for it; and any portfolio link it
 * was given, with what the access log kept of its uses.
 */
export async function erasePersonalData(
  db: Client,
  email: string,
  options: { photosRoot?: string; outboxDir?: string } = {},
): Promise<{ enquiries: number; emails: number; photos: number; portfolioLinks: number }> {
  const deleted = await deleteEnquiries(db, sentWith(email), {
    ...options,
    alongside: [...erasePortfolioPeople(db, email), ...erasePortfolioLinkMails(db, email)],
  });
  return { enquiries: deleted.enquiries, emails: deleted.emails, photos: deleted.photos, portfolioLinks: deleted.alongside[1] ?? 0 };
}
