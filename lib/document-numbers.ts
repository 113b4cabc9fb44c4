import { isEnquiryReference } from '@/lib/enquiry-reference';

/**
 * The number of a drying document the site issues: the claim's reference, a letter for its kind
 * (E: electricity statement, C: certificate of dryness) and its place among that claim's documents of
 * that kind, from 1: `HC-YVG-Y5S-E2` is the claim's second electricity statement.
 */
export type DocumentKind = 'statement' | 'certificate';

const LETTER: Record<DocumentKind, 'E' | 'C'> = { statement: 'E', certificate: 'C' };
/** Up to 9,999 of a kind: far beyond what a claim's downloads make in practice. */
const NUMBER_PATTERN = /^(HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3})-([EC])([1-9][0-9]{0,3})$/;
export const MAX_DOCUMENT_SEQUENCE = 9_999;

export function documentNumber(reference: string, kind: DocumentKind, sequence: number): string {
  if (!isEnquiryReference(reference)) throw new RangeError(`Not a reference: ${reference}`);
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > MAX_DOCUMENT_SEQUENCE)
    throw new RangeError(`A document's sequence is 1-${MAX_DOCUMENT_SEQUENCE}`);
  return `${reference}-${LETTER[kind]}${sequence}`;
}

/** A document number's parts, or null when it is not one. */
export function parseDocumentNumber(number: string): { reference: string; kind: DocumentKind; sequence: number } | null {
  const match = NUMBER_PATTERN.exec(number);
  if (!match) return null;
  return { reference: match[1]!, kind: match[2] === 'E' ? 'statement' : 'certificate', sequence: Number(match[3]) };
}

/** A verification token: the document's number, a dot and its 32-character signature. */
const TOKEN_PATTERN = /^(HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}-[EC][1-9][0-9]{0,3})\.([A-Za-z0-9_-]{32})$/;
export const DOCUMENT_SIGNATURE_CHARACTERS = 32;

export function parseVerificationToken(token: string): { number: string; signature: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  return match ? { number: match[1]!, signature: match[2]! } : null;
}
