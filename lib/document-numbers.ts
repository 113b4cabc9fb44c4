import { isEnquiryReference } from '@/lib/enquiry-reference';

/**
 * The number of a drying document the site issues: the claim's reference, a letter for its kind
 * (E: electricity statement, C: certificate of dryness) and its place among that claim's documents of
 * that kind, from 1: `HC-YVG-Y5S-E2` is the claim's second electricity statement.
 */
export type DocumentKind = 'statement' | 'certificate';

const LETTER: Record<DocumentKind, 'E' | 'C'> = { statement: 'E', certificate: 'C' };
/**
 * Numbering never runs out for a claim: a sequence is any whole number from 1 a JavaScript number holds
 * exactly (15 digits at most), which at the issuing budget's pace (server/claims/drying/issued-documents.ts)
 * would take longer than the universe has existed.
 */
const SEQUENCE = '[1-9][0-9]{0,14}';
const LAST_SEQUENCE = 10 ** 15 - 1;
const NUMBER_PATTERN = new RegExp(`^(HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3})-([EC])(${SEQUENCE})$`);

export function documentNumber(reference: string, kind: DocumentKind, sequence: number): string {
  if (!isEnquiryReference(reference)) throw new RangeError(`Not a reference: ${reference}`);
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > LAST_SEQUENCE)
    throw new RangeError(`A document's sequence is a whole number from 1 to ${LAST_SEQUENCE}`);
  return `${reference}-${LETTER[kind]}${sequence}`;
}

/** A document number's parts, or null when it is not one. */
export function parseDocumentNumber(number: string): { reference: string; kind: DocumentKind; sequence: number } | null {
  const match = NUMBER_PATTERN.exec(number);
  if (!match) return null;
  return { reference: match[1]!, kind: match[2] === 'E' ? 'statement' : 'certificate', sequence: Number(match[3]) };
}

/** A verification token: the document's number, a dot and its 32-character signature. */
const TOKEN_PATTERN = new RegExp(`^(HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}-[EC]${SEQUENCE})\\.([A-Za-z0-9_-]{32})$`);
export const DOCUMENT_SIGNATURE_CHARACTERS = 32;

export function parseVerificationToken(token: string): { number: string; signature: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  return match ? { number: match[1]!, signature: match[2]! } : null;
}
