import 'server-only';
import type { Client } from '@libsql/client';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import {
  drynessCertificate,
  electricityStatement,
  unitRateOf,
  type DrynessCertificate,
  type ElectricityStatement,
} from '@/lib/drying-documents';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimOfSession } from '@/server/claims/claim-links';
import { dryingRecordOf } from '@/server/claims/drying/record';
import { renderCertificatePdf, renderStatementPdf } from '@/server/claims/drying/pdf';
import {
  DocumentBudgetSpent,
  issueDryingDocument,
  runningStatementSince,
  sameRecord,
  verifiedDocument,
  type DocumentFigures,
  type DocumentStamp,
  type VerifiedDocument,
} from '@/server/claims/drying/issued-documents';
import { config } from '@/server/base/config.mjs';
import { getDb, orm } from '@/server/base/db';
import { claimStageChanges, enquiries } from '@/server/base/db-schema';

/**
 * A claim's drying documents: the electricity statement and the certificate of dryness, PDFs opened by
 * the status page's cookie and issued once for the record as it stands (server/claims/drying/issued-documents.ts),
 * and the read-only page at /verify/<token> printed on each, which shows that document as issued.
 */

/** What every answer here carries: kept by no cache, indexed by no search engine. */
export const DOCUMENT_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow', 'X-Content-Type-Options': 'nosniff' };

type Confirmed = { at: string; by: string | null };

/** When drying was confirmed and by whom: the latest `dried` change, unless the claim went back to `drying` since. */
async function confirmedOf(db: Client, enquiryId: number): Promise<Confirmed | null> {
  const c = claimStageChanges;
  const [latest] = await orm(db)
    .select({ stage: c.stage, at: c.changedAt, by: c.confirmedBy })
    .from(c)
    .where(and(eq(c.enquiryId, enquiryId), inArray(c.stage, ['drying', 'dried'])))
    .orderBy(desc(c.changedMs), desc(c.id))
    .limit(1);
  return latest?.stage === 'dried' ? { at: latest.at, by: latest.by } : null;
}

const HOUR_MS = 3_600_000;

/**
 * The statement at `now`, except while machines run: its kWh then grow by the minute, so it runs to the
 * end of the claim's last statement when that end is within the hour and the record has not changed
 * since (the same figures, issued now; the same document unless the rate differs). A running record's
 * statement is so reissued at most once an hour of the record's own time, however often it is asked for.
 */
async function hourlyStatement(
  db: Client,
  enquiryId: number,
  now: number,
  statementAt: (at: number) => ElectricityStatement | null,
): Promise<ElectricityStatement | null> {
  const fresh = statementAt(now);
  if (!fresh?.running) return fresh;
  const recent = await runningStatementSince(db, enquiryId, now - HOUR_MS);
  if (!recent) return fresh;
  const again = statementAt(Date.parse(recent.to));
  if (!again || !sameRecord({ kind: 'statement', figures: again }, { kind: 'statement', figures: recent })) return fresh;
  return { ...again, issuedAt: fresh.issuedAt };
}

export type DryingDocuments = { statement: ElectricityStatement | null; certificate: DrynessCertificate | null };

/** A claim's documents now; the statement's amount only with the customer's own rate. */
export async function dryingDocumentsOf(
  db: Client,
  enquiryId: number,
  now: number,
  pencePerKwh: number | null = null,
): Promise<DryingDocuments | null> {
  const [enquiry] = await orm(db).select({ postcode: enquiries.postcode }).from(enquiries).where(eq(enquiries.id, enquiryId));
  if (!enquiry) return null;
  const reference = enquiryReference(enquiryId);
  const postcode = enquiry.postcode?.trim() || null;
  const record = await dryingRecordOf(db, enquiryId);
  const statementAt = (at: number) => electricityStatement({ reference, postcode, machines: record.machines, now: at, pencePerKwh });
  return {
    statement: await hourlyStatement(db, enquiryId, now, statementAt),
    certificate: drynessCertificate({
      reference,
      postcode,
      readings: record.readings,
      machines: record.machines,
      confirmed: await confirmedOf(db, enquiryId),
      now,
    }),
  };
}

export type DocumentDeps = { db?: () => Promise<Client>; now?: number };

export type DryingDocumentKind = 'statement' | 'certificate';

/** The verification page's document: as issued, superseded, withdrawn or deleted; null for a link that names none. */
export async function verifiedDryingDocument(token: string, deps: DocumentDeps = {}): Promise<VerifiedDocument | null> {
  return verifiedDocument(await (deps.db ?? getDb)(), token);
}

const notFound = () =>
  new Response('Not found', { status: 404, headers: { ...DOCUMENT_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });

const render = (document: DocumentFigures, stamp: DocumentStamp) =>
  document.kind === 'statement' ? renderStatementPdf(document.figures, stamp) : renderCertificatePdf(document.figures, stamp);

/** Documents are issued to the minute: the same request within it, with nothing changed, is the same document. */
const toTheMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/**
 * GET (and, for the statement, POST with the customer's unit rate as a form field, so it stays out of
 * the address) /claims/<reference>/electricity.pdf and /claims/<reference>/certificate.pdf: the
 * document issued for the record as it stands (server/claims/drying/issued-documents.ts).
 */
export async function dryingDocumentResponse(
  kind: DryingDocumentKind,
  reference: string,
  session: string | undefined,
  form: FormData | null,
  deps: DocumentDeps = {},
): Promise<Response> {
  const now = toTheMinute(deps.now ?? Date.now());
  const rateText = form?.get('rate');
  const typed = typeof rateText === 'string' ? rateText.trim() : '';
  const rate = kind === 'statement' && typed ? unitRateOf(typed) : null;
  const db = await (deps.db ?? getDb)();
  const enquiryId = await claimOfSession(db, 'status', reference, session, now);
  if (enquiryId === null) return notFound();
  if (typed && rate === null)
    return new Response(words.badRate, { status: 400, headers: { ...DOCUMENT_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
  const documents = await dryingDocumentsOf(db, enquiryId, now, rate);
  const document: DocumentFigures | null =
    kind === 'statement'
      ? documents?.statement
        ? { kind, figures: documents.statement }
        : null
      : documents?.certificate
        ? { kind, figures: documents.certificate }
        : null;
  if (!document) return notFound();
  let issued;
  try {
    issued = await issueDryingDocument(db, enquiryId, enquiryReference(enquiryId), document, { siteUrl: config().siteUrl, render });
  } catch (error) {
    if (!(error instanceof DocumentBudgetSpent)) throw error;
    return new Response(words.tooMany, {
      status: 429,
      headers: { ...DOCUMENT_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '3600' },
    });
  }
  const name = `${kind === 'statement' ? 'electricity-statement' : 'certificate-of-dryness'}-${issued.number}.pdf`;
  return new Response(new Uint8Array(issued.pdf), {
    status: 200,
    headers: { ...DOCUMENT_HEADERS, 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"` },
  });
}
