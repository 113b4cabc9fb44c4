import 'server-only';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Client } from '@libsql/client';
import { and, asc, count, desc, eq, gt, inArray, isNull, max, ne, sql, type SQLWrapper } from 'drizzle-orm';
import type { DrynessCertificate, ElectricityStatement } from '@/lib/drying-documents';
import { DOCUMENT_SIGNATURE_CHARACTERS, documentNumber, parseVerificationToken, type DocumentKind } from '@/lib/document-numbers';
import { READING_ABOVE_GOAL } from '@/server/claims/drying/reopen';
import { insertSelect, orm, writeBatch } from '@/server/base/db';
import { claimStageChanges, dryingDocuments, siteSecrets } from '@/server/base/db-schema';

/**
 * The drying documents the site has issued. Each PDF given out is a document: a number
 * (lib/document-numbers.ts), an issue time, the figures as printed and the SHA-256 of its bytes, kept
 * with the claim. The same request while nothing has changed returns the same document, byte for byte;
 * a change to the record issues the next number and marks the earlier ones it replaces superseded.
 *
 * The verification link printed on a document names that document and is signed with the site's
 * `drying-documents` secret over its number and its figures: revoking or rotating a claim's links ends
 * the links to its pages, not the truth of what was issued, and a database restored from an older
 * backup that issues the same number again cannot make an old printed link show a new document.
 */

const SECRET_NAME = 'drying-documents';

/**
 * At most this many new documents of each kind a claim in any 24 hours, so at most 20 of both: a
 * customer trying rates, a staff visit and an insurer's request make a few; past it the last one issued
 * still stands. Each kind has its own, so whoever holds the status link and tries rates for the
 * statement cannot leave the company without a new certificate that day.
 */
export const DOCUMENTS_PER_KIND_PER_DAY = 10;
const DAY_MS = 24 * 3_600_000;

/** Thrown when a new document would pass the claim's budget (the same document again is never refused). */
export class DocumentBudgetSpent extends Error {
  constructor(reference: string, kind: DocumentKind) {
    super(`Claim ${reference} has been issued ${DOCUMENTS_PER_KIND_PER_DAY} documents of kind ${kind} in 24 hours`);
  }
}

export type DocumentFigures = { kind: 'statement'; figures: ElectricityStatement } | { kind: 'certificate'; figures: DrynessCertificate };

export type IssuedDocument = { number: string; kind: DocumentKind; issuedAt: string; pdf: Buffer; pdfSha256: string };

/** What a PDF renderer gets: the number, the issue time and the address printed on it. */
export type DocumentStamp = { number: string; issuedAt: string; verifyUrl: string };

/** Where the verification address points, and what draws a document's PDF. */
type IssueOptions = { siteUrl: string; render: (document: DocumentFigures, stamp: DocumentStamp) => Promise<Uint8Array> };

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The figures without the moment they were issued: equal when a request changes nothing. */
function contentOf(document: DocumentFigures): unknown {
  const { issuedAt: _issuedAt, ...rest } = document.figures;
  return rest;
}

/** The figures without the issue time and the customer's own rate: the record they were drawn from. */
function recordOf(document: DocumentFigures): unknown {
  if (document.kind === 'certificate') return contentOf(document);
  const { issuedAt: _issuedAt, cost: _cost, ...rest } = document.figures;
  return rest;
}

async function secretOf(db: Client): Promise<Buffer> {
  const [row] = await orm(db).select({ value: siteSecrets.value }).from(siteSecrets).where(eq(siteSecrets.name, SECRET_NAME));
  if (!row) throw new Error('The drying documents secret is missing from the database (migration 0025 makes it).');
  return row.value;
}

const signatureOf = (secret: Buffer, number: string, figuresDigest: string) =>
  createHmac('sha256', secret).update(`${number}:${figuresDigest}`).digest('base64url').slice(0, DOCUMENT_SIGNATURE_CHARACTERS);

/** The path an insurer checks a document at: /verify/<number>.<signature>. */
export const verificationPath = (number: string, secret: Buffer, figuresDigest: string) =>
  `/verify/${number}.${signatureOf(secret, number, figuresDigest)}`;

/** Issuing in progress, per database and claim: a claim's requests are issued one after another. */
const issuing = new WeakMap<Client, Map<number, Promise<unknown>>>();

/**
 * Runs `work` once the claim's earlier issuing in this process has finished: requests at once for one
 * claim then find the document the first issued, or the budget spent, before any draws a PDF.
 */
function afterClaimsEarlierIssuing<T>(db: Client, enquiryId: number, work: () => Promise<T>): Promise<T> {
  let claims = issuing.get(db);
  if (!claims) issuing.set(db, (claims = new Map()));
  const run = (claims.get(enquiryId) ?? Promise.resolve()).then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  claims.set(enquiryId, settled);
  void settled.then(() => {
    if (claims.get(enquiryId) === settled) claims.delete(enquiryId);
  });
  return run;
}

const isUniqueViolation = (error: unknown) => error instanceof Error && /UNIQUE constraint failed/i.test(error.message);

/**
 * The document for `document`'s figures: the one already issued when nothing has changed since, else a
 * new one, rendered by `render` with its number and verification address (`siteUrl` + the path), and
 * stored; the claim's earlier documents of that kind drawn from another record are marked superseded
 * by it. Two requests at once issue one number each or share one, never the same number twice (in
 * this process they wait their turn; another process's are kept apart by the number's unique index).
 */
export function issueDryingDocument(
  db: Client,
  enquiryId: number,
  reference: string,
  document: DocumentFigures,
  options: IssueOptions,
): Promise<IssuedDocument> {
  return afterClaimsEarlierIssuing(db, enquiryId, () => issueNow(db, enquiryId, reference, document, options));
}

async function issueNow(
  db: Client,
  enquiryId: number,
  reference: string,
  document: DocumentFigures,
  options: IssueOptions,
): Promise<IssuedDocument> {
  const q = orm(db);
  const d = dryingDocuments;
  const contentDigest = sha256(JSON.stringify(contentOf(document)));
  const recordDigest = sha256(JSON.stringify(recordOf(document)));
  const figuresJson = JSON.stringify(document.figures);
  const figuresDigest = sha256(figuresJson);
  const issuedAt = document.figures.issuedAt;
  const current = and(eq(d.enquiryId, enquiryId), eq(d.kind, document.kind), isNull(d.supersededBy), isNull(d.deletedMs));
  const sameAsBefore = async () => {
    const [row] = await q
      .select({ number: d.number, issuedAt: d.issuedAt, pdf: d.pdf, pdfSha256: d.pdfSha256 })
      .from(d)
      .where(and(current, eq(d.contentDigest, contentDigest)))
      .orderBy(desc(d.sequence))
      .limit(1);
    return row?.pdf ? { number: row.number, kind: document.kind, issuedAt: row.issuedAt, pdf: row.pdf, pdfSha256: row.pdfSha256 } : null;
  };
  const issuedMs = Date.parse(issuedAt);
  // The claim's documents of this kind of the last 24 hours; deleted ones are no longer the claim's (their enquiry id is gone).
  const issuedToday = and(eq(d.enquiryId, enquiryId), eq(d.kind, document.kind), gt(d.issuedMs, issuedMs - DAY_MS));
  const secret = await secretOf(db);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const before = await sameAsBefore();
    if (before) return before;
    // Checked before the PDF is drawn, and again in the insert itself, so requests at once cannot pass it either.
    const [today] = await q.select({ issued: count() }).from(d).where(issuedToday);
    if ((today?.issued ?? 0) >= DOCUMENTS_PER_KIND_PER_DAY) throw new DocumentBudgetSpent(reference, document.kind);
    const [last] = await q
      .select({ sequence: max(d.sequence) })
      .from(d)
      .where(and(eq(d.enquiryId, enquiryId), eq(d.kind, document.kind)));
    const sequence = (last?.sequence ?? 0) + 1;
    const number = documentNumber(reference, document.kind, sequence);
    const verifyUrl = `${options.siteUrl}${verificationPath(number, secret, figuresDigest)}`;
    const pdf = Buffer.from(await options.render(document, { number, issuedAt, verifyUrl }));
    const pdfSha256 = sha256(pdf);
    try {
      // One batch, no awaits inside a transaction: stored unless the same document was issued meanwhile.
      const [inserted] = await writeBatch(db, [
        q.run(
          insertSelect(
            d,
            {
              enquiryId,
              kind: document.kind,
              sequence,
              number,
              issuedAt,
              issuedMs,
              figures: figuresJson,
              figuresDigest,
              contentDigest,
              recordDigest,
              pdf,
              pdfSha256,
            },
            sql`WHERE NOT EXISTS (SELECT 1 FROM ${d} WHERE ${and(current, eq(d.contentDigest, contentDigest))})
              AND (SELECT count(*) FROM ${d} WHERE ${issuedToday}) < ${DOCUMENTS_PER_KIND_PER_DAY}`,
          ),
        ),
        q
          .update(d)
          .set({ supersededBy: number, supersededMs: issuedMs })
          .where(and(current, ne(d.number, number), ne(d.recordDigest, recordDigest), sql`changes() > 0`)),
      ]);
      // Nothing stored and no error: the same document was issued meanwhile, or the budget was spent; the next try says which.
      if (inserted && inserted.rowsAffected > 0) return { number, kind: document.kind, issuedAt, pdf, pdfSha256 };
    } catch (error) {
      // Another request took this number first: the next try takes the next one.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error(`Could not issue a ${document.kind} for claim ${reference}: other requests kept taking its number`);
}

/** Whether two documents were drawn from the same record: equal but for their issue time and the customer's rate. */
export const sameRecord = (a: DocumentFigures, b: DocumentFigures) => JSON.stringify(recordOf(a)) === JSON.stringify(recordOf(b));

/** The claim's latest current statement, as issued, when machines ran and its figures run to after `sinceMs`; else null. */
export async function runningStatementSince(db: Client, enquiryId: number, sinceMs: number): Promise<ElectricityStatement | null> {
  const d = dryingDocuments;
  const [row] = await orm(db)
    .select({ figures: d.figures })
    .from(d)
    .where(and(eq(d.enquiryId, enquiryId), eq(d.kind, 'statement'), isNull(d.supersededBy), gt(d.issuedMs, sinceMs)))
    .orderBy(desc(d.sequence))
    .limit(1);
  const statement = row?.figures ? (JSON.parse(row.figures) as ElectricityStatement) : null;
  return statement?.running && Date.parse(statement.to) > sinceMs ? statement : null;
}

/** What a number no document has is checked against: no SHA-256 is this. */
const NO_FIGURES = 'none';

/** Why a certificate no longer stands: the claim went back to drying after it was confirmed. */
export type Withdrawal = { at: string; reason: 'reading-above-goal' | 'drying-resumed' };

export type VerifiedDocument =
  | { state: 'deleted'; number: string; kind: DocumentKind; issuedAt: string; deletedAt: string }
  | ({
      state: 'issued';
      number: string;
      issuedAt: string;
      pdfSha256: string;
      superseded: { by: string; at: string } | null;
      withdrawn: Withdrawal | null;
    } & DocumentFigures);

async function withdrawalOf(db: Client, enquiryId: number, certificate: DrynessCertificate): Promise<Withdrawal | null> {
  const c = claimStageChanges;
  const [back] = await orm(db)
    .select({ at: c.changedAt, eventId: c.eventId })
    .from(c)
    .where(and(eq(c.enquiryId, enquiryId), eq(c.stage, 'drying'), gt(c.changedMs, Date.parse(certificate.confirmedAt))))
    .orderBy(asc(c.changedMs), asc(c.id))
    .limit(1);
  if (!back) return null;
  return { at: back.at, reason: back.eventId?.startsWith(READING_ABOVE_GOAL) ? 'reading-above-goal' : 'drying-resumed' };
}

/**
 * The document a verification token names, as issued, with whether it was superseded or withdrawn
 * since, or that its claim's record was deleted; null for a token that is malformed, forged or names
 * no document.
 */
export async function verifiedDocument(db: Client, token: string): Promise<VerifiedDocument | null> {
  const parsed = parseVerificationToken(token);
  if (!parsed) return null;
  const d = dryingDocuments;
  // Everything but the PDF: a forged or unknown token reads no bytes of one.
  const [row] = await orm(db)
    .select({
      number: d.number,
      kind: d.kind,
      enquiryId: d.enquiryId,
      issuedAt: d.issuedAt,
      issuedMs: d.issuedMs,
      figures: d.figures,
      figuresDigest: d.figuresDigest,
      pdfSha256: d.pdfSha256,
      supersededBy: d.supersededBy,
      supersededMs: d.supersededMs,
      deletedMs: d.deletedMs,
    })
    .from(d)
    .where(eq(d.number, parsed.number));
  // The signature is worked out and compared whether or not the number exists, so the answer's time
  // does not tell which numbers were issued.
  const expected = Buffer.from(signatureOf(await secretOf(db), parsed.number, row?.figuresDigest ?? NO_FIGURES));
  const given = Buffer.from(parsed.signature);
  const signed = expected.length === given.length && timingSafeEqual(expected, given);
  if (!row || !signed) return null;
  if (row.deletedMs !== null || row.figures === null || row.enquiryId === null)
    return {
      state: 'deleted',
      number: row.number,
      kind: row.kind,
      issuedAt: row.issuedAt,
      deletedAt: new Date(row.deletedMs ?? row.issuedMs).toISOString(),
    };
  const superseded = row.supersededBy ? { by: row.supersededBy, at: new Date(row.supersededMs ?? row.issuedMs).toISOString() } : null;
  const base = { state: 'issued' as const, number: row.number, issuedAt: row.issuedAt, pdfSha256: row.pdfSha256, superseded };
  if (row.kind === 'statement')
    return { ...base, kind: 'statement', figures: JSON.parse(row.figures) as ElectricityStatement, withdrawn: null };
  const certificate = JSON.parse(row.figures) as DrynessCertificate;
  return { ...base, kind: 'certificate', figures: certificate, withdrawn: await withdrawalOf(db, row.enquiryId, certificate) };
}

/** The documents a claim has been issued, for its data export: numbers, times and figures as printed. */
export async function issuedDocumentsOf(db: Client, enquiryId: number) {
  const d = dryingDocuments;
  const rows = await orm(db)
    .select({
      number: d.number,
      kind: d.kind,
      issuedAt: d.issuedAt,
      figures: d.figures,
      pdfSha256: d.pdfSha256,
      supersededBy: d.supersededBy,
    })
    .from(d)
    .where(eq(d.enquiryId, enquiryId))
    .orderBy(asc(d.id));
  return rows.map((row) => ({ ...row, figures: row.figures === null ? null : (JSON.parse(row.figures) as unknown) }));
}

/**
 * The statement that deletes the issued documents of the enquiries `ids` selects (erasure, retention),
 * before the enquiries: their figures and bytes go; their numbers and digests stay, unlinked from any
 * claim, so a verification link already printed says the record was deleted.
 */
export function deleteIssuedDocuments(db: Client, ids: SQLWrapper, now: number) {
  const d = dryingDocuments;
  return orm(db)
    .update(d)
    .set({ enquiryId: null, figures: null, pdf: null, contentDigest: null, recordDigest: null, deletedMs: now })
    .where(inArray(d.enquiryId, ids));
}
