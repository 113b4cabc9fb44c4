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
import { claimLinkToken, claimOfSession, claimOfToken } from '@/server/claims/claim-links';
import { dryingRecordOf } from '@/server/claims/drying-record';
import { renderCertificatePdf, renderStatementPdf } from '@/server/claims/drying-pdf';
import { config } from '@/server/config.mjs';
import { getDb, orm } from '@/server/db';
import { claimStageChanges, enquiries } from '@/server/db-schema';

/**
 * A claim's drying documents: the electricity statement and the certificate of dryness (PDFs opened by
 * the status page's cookie) and the read-only page at /verify/<token> printed on both. All of them read
 * the claim through its links' key, so a revoked link, an erasure or retention ends them too.
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
  return {
    statement: electricityStatement({ reference, postcode, machines: record.machines, now, pencePerKwh }),
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

/** The address printed on a claim's documents, or null when the claim is gone. */
async function verifyUrlOf(db: Client, enquiryId: number): Promise<string | null> {
  const token = await claimLinkToken(db, 'verify', enquiryId);
  return token ? `${config().siteUrl}/verify/${token}` : null;
}

/** The claim a verification token opens, with its documents (no amount: the customer's rate is not kept), or null. */
export async function verifiedDocuments(token: string, deps: DocumentDeps = {}): Promise<DryingDocuments | null> {
  const db = await (deps.db ?? getDb)();
  const now = deps.now ?? Date.now();
  const enquiryId = await claimOfToken(db, 'verify', token);
  if (enquiryId === null) return null;
  const documents = await dryingDocumentsOf(db, enquiryId, now);
  return documents && (documents.statement || documents.certificate) ? documents : null;
}

export type DocumentDeps = { db?: () => Promise<Client>; now?: number };

export type DryingDocumentKind = 'statement' | 'certificate';

const notFound = () =>
  new Response('Not found', { status: 404, headers: { ...DOCUMENT_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });

/**
 * GET (and, for the statement, POST with the customer's unit rate as a form field, so it stays out of
 * the address) /claims/<reference>/electricity.pdf and /claims/<reference>/certificate.pdf.
 */
export async function dryingDocumentResponse(
  kind: DryingDocumentKind,
  reference: string,
  session: string | undefined,
  form: FormData | null,
  deps: DocumentDeps = {},
): Promise<Response> {
  const now = deps.now ?? Date.now();
  const rateText = form?.get('rate');
  const typed = typeof rateText === 'string' ? rateText.trim() : '';
  const rate = kind === 'statement' && typed ? unitRateOf(typed) : null;
  const db = await (deps.db ?? getDb)();
  const enquiryId = await claimOfSession(db, 'status', reference, session, now);
  if (enquiryId === null) return notFound();
  if (typed && rate === null)
    return new Response(words.badRate, { status: 400, headers: { ...DOCUMENT_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
  const documents = await dryingDocumentsOf(db, enquiryId, now, rate);
  const verifyUrl = await verifyUrlOf(db, enquiryId);
  if (!documents || !verifyUrl) return notFound();
  const issued = (issuedAt: string) => ({ number: enquiryReference(enquiryId), issuedAt, verifyUrl });
  const pdf =
    kind === 'statement'
      ? documents.statement && (await renderStatementPdf(documents.statement, issued(documents.statement.issuedAt)))
      : documents.certificate && (await renderCertificatePdf(documents.certificate, issued(documents.certificate.issuedAt)));
  if (!pdf) return notFound();
  const name = `${kind === 'statement' ? 'electricity-statement' : 'certificate-of-dryness'}-${enquiryReference(enquiryId)}.pdf`;
  return new Response(Buffer.from(pdf), {
    status: 200,
    headers: { ...DOCUMENT_HEADERS, 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"` },
  });
}
