// An enquiry stored for a test: sent through POST /api/contact's handler as a visitor's form sends it
// (submitEnquiry), or built with its verdict already given for the store itself (newEnquiry).
import type { Client } from '@libsql/client';
import { expect } from 'vitest';
import { createContactHandler } from '@/server/intake/contact-handler';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/intake/enquiry-settings';
import type { NewEnquiry } from '@/server/ledger/enquiry-store';
import { contactRequest } from '@/tests/support/enquiry-peers';
import { multipartRequest, type Photo } from '@/tests/support/multipart-request';

/** What a person types in the contact form, unless a test says otherwise. */
export const typedEnquiry = {
  name: 'Jo Bloggs',
  email: 'jo@example.com',
  phone: '',
  subject: 'Ceiling down',
  message: 'The kitchen ceiling came down.',
};

/** A photo as the store takes it, already re-encoded: its bytes tell it apart. */
export const photoToStore = <Bytes extends Buffer>(bytes: Bytes, originalName: string) => ({
  bytes,
  width: 2048,
  height: 1536,
  contentType: 'image/jpeg' as const,
  originalName,
});

/** A new enquiry as the store takes it, checked and accepted (no bot protection configured). */
export const newEnquiry = (extra: Partial<NewEnquiry> = {}): NewEnquiry => ({
  ...typedEnquiry,
  clientAddress: '203.0.113.7',
  disposition: 'accepted',
  verification: 'not-configured',
  ...extra,
});

export type SubmitOptions = {
  /** The handler's clock (ms): when the enquiry is received. The real time unless given. */
  at?: number;
  /** The site's enquiry settings: loadEnquiryConfig({}) unless given. */
  config?: EnquiryConfig;
  photosRoot?: string;
  /** Sent as the form's multipart body with these photos (none for an empty list); JSON without. */
  photos?: Photo[];
  /** The client's address (a fresh one each time unless given). */
  address?: string;
  /** The request's Cookie header (a portfolio's cookie, say). */
  cookie?: string;
};

/**
 * Sends `fields` (over typedEnquiry's) to the contact handler, as the route hands it a request, and
 * asserts it was stored (201). Its id and reference.
 */
export async function submitEnquiry(
  db: Client,
  fields: Record<string, string> = {},
  { at, config = loadEnquiryConfig({}), photosRoot, photos, address, cookie }: SubmitOptions = {},
): Promise<{ id: number; reference: string }> {
  const handle = createContactHandler({
    config,
    db: async () => db,
    wake: () => undefined,
    ...(photosRoot === undefined ? {} : { photosRoot }),
    ...(at === undefined ? {} : { now: () => at }),
  });
  const body = { ...typedEnquiry, ...fields };
  const client = address === undefined ? {} : { address };
  const request = photos ? (await multipartRequest(body, photos, client)).request : contactRequest(body, { ...client, cookie });
  const response = await handle(request);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  // Every stored enquiry is answered with its reference (spam too); without one, it is the latest row.
  const row = response.body.reference
    ? await db.execute({ sql: 'SELECT id, reference FROM enquiries WHERE reference = ?', args: [String(response.body.reference)] })
    : await db.execute('SELECT id, reference FROM enquiries ORDER BY id DESC LIMIT 1');
  return { id: Number(row.rows[0]!.id), reference: String(row.rows[0]!.reference) };
}
