// A claim's drying documents against a real database: the PDFs read back with a text extractor, opened
// only by the status page's cookie, and the verification token's figures; all end with the claim's links.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimLinkToken, claimSessionValue, revokeClaimLinks } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { dryingDocumentResponse, verifiedDocuments } from '@/server/claims/drying-documents';
import { documentDateTime } from '@/server/claims/drying-pdf';
import { recordDryingVisit } from '@/server/claims/drying-record';
import { loadEnquiryConfig } from '@/server/enquiry-config';
import { createContactHandler } from '@/server/intake/contact-handler';
import { contactRequest, tempDatabase } from '@/tests/support/enquiry-peers';
import { pdfText } from '@/tests/support/pdf-text';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const HOUR_MS = 3_600_000;
const now = Date.now();
// Whole hours, so the hand-worked 168 hours hold whatever the clock.
const on = new Date(Math.floor((now - 8 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS);
const off = new Date(on.getTime() + 168 * HOUR_MS);

async function claimDrying() {
  const handle = createContactHandler({ config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined });
  const body = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '07700 900123', subject: 'Burst pipe', message: 'Water everywhere.' };
  expect((await handle(contactRequest({ ...body, postcode: 'G67 1AA' }))).status).toBe(201);
  const id = 1;
  const reading = (value: number) => [{ location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value, goal: 12 }];
  const machine = { kind: 'dehumidifier' as const, model: 'Ebac 2650e', watts: 700, count: 1, on: on.toISOString(), kwh: null };
  const visit = (at: Date, value: number, machineOff: Date | null) => ({
    reference: enquiryReference(id),
    visitAt: at.toISOString(),
    readings: reading(value),
    equipment: [{ ...machine, off: machineOff?.toISOString() ?? null }],
  });
  await recordDryingVisit(db, id, visit(on, 28, null), { source: 'crm', eventId: 'msg_1', now });
  await recordDryingVisit(db, id, visit(off, 11, off), { source: 'crm', eventId: 'msg_2', now });
  return { id, reference: enquiryReference(id), session: (await claimSessionValue(db, 'status', id, now))! };
}

const rateForm = (rate: string) => {
  const form = new FormData();
  form.append('rate', rate);
  return form;
};
const deps = () => ({ db: async () => db, now });
const textOf = async (answer: Response) => pdfText(new Uint8Array(await answer.arrayBuffer()));

describe('the electricity statement', () => {
  it('prints the hand-worked figures, the amount at the customer’s own rate, and the verification line', async () => {
    const { id, reference, session } = await claimDrying();
    const answer = await dryingDocumentResponse('statement', reference, session, rateForm('24.5'), deps());
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const text = await textOf(answer);
    const token = await claimLinkToken(db, 'verify', id);
    for (const line of [
      words.statement.title,
      `Claim reference: ${reference}`,
      'Property: postcode G67 1AA',
      `Ebac 2650e dehumidifier 700 ${documentDateTime(on.toISOString())} ${documentDateTime(off.toISOString())} 168.0 117.6 rated W × hours`,
      'Total electricity used: 117.6 kWh',
      'At your unit rate of 24.5 p/kWh, the amount to claim: £28.81',
      words.statement.standingCharge,
      'Example Homecare Ltd, Registered in Scotland, company number SC000000',
      `/verify/${token}`,
    ])
      expect(text).toContain(line);
    for (const personal of ['Jo Bloggs', 'jo@example.com', '07700 900123', 'Water everywhere']) expect(text).not.toContain(personal);
  });

  it('gives kWh only without a rate, refuses a rate outside 1-200 p/kWh, and opens only with the claim’s cookie', async () => {
    const { id, reference, session } = await claimDrying();
    const kwhOnly = await textOf(await dryingDocumentResponse('statement', reference, session, null, deps()));
    expect(kwhOnly).toContain('Total electricity used: 117.6 kWh');
    expect(kwhOnly).toContain(words.statement.noRate);
    expect(kwhOnly).not.toContain('£');
    const badRate = await dryingDocumentResponse('statement', reference, session, rateForm('250'), deps());
    expect(badRate.status).toBe(400);
    expect(await badRate.text()).toBe(words.badRate);
    expect((await dryingDocumentResponse('statement', reference, undefined, null, deps())).status).toBe(404);
    expect((await dryingDocumentResponse('statement', reference, `${now + 1000}.${'A'.repeat(32)}`, null, deps())).status).toBe(404);
    expect((await dryingDocumentResponse('statement', 'HC-ZZZ-ZZZ', session, null, deps())).status).toBe(404);
    await revokeClaimLinks(db, id);
    expect((await dryingDocumentResponse('statement', reference, session, null, deps())).status).toBe(404);
  });
});

describe('the certificate of dryness', () => {
  it('is there once the staff page saved dried with a name, with first and last readings against the goal', async () => {
    const { id, reference, session } = await claimDrying();
    expect((await dryingDocumentResponse('certificate', reference, session, null, deps())).status).toBe(404);
    const pages = createClaimPages({ db: async () => db, now: () => now, tellCrm: false });
    const form = new FormData();
    form.append('formToken', newFormToken());
    form.append('stage', 'dried');
    form.append('confirmedBy', 'Sam Fitter');
    const staff = (await claimSessionValue(db, 'update', id, now))!;
    expect(await pages.saveUpdate(reference, staff, form)).toMatchObject({ kind: 'saved' });

    const answer = await dryingDocumentResponse('certificate', reference, session, null, deps());
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const text = await textOf(answer);
    const day = (at: Date) =>
      new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' }).format(at);
    for (const line of [
      words.certificate.title,
      `Claim reference: ${reference}`,
      `Kitchen wall plaster %WME 28 on ${day(on)} 11 on ${day(off)} 12`,
      words.certificate.removedHeading,
      'Ebac 2650e dehumidifier',
      `Drying confirmed on ${day(new Date(now))} by Sam Fitter.`,
      `/verify/${await claimLinkToken(db, 'verify', id)}`,
    ])
      expect(text).toContain(line);
  });
});

describe('the verification token', () => {
  it('opens the claim’s figures, and nothing once forged, for another purpose, or revoked', async () => {
    const { id } = await claimDrying();
    const token = (await claimLinkToken(db, 'verify', id))!;
    const documents = await verifiedDocuments(token, deps());
    expect(documents?.statement).toMatchObject({ totalKwh: 117.6, cost: null, postcode: 'G67 1AA' });
    expect(documents?.certificate).toBeNull();
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await verifiedDocuments(forged, deps())).toBeNull();
    expect(await verifiedDocuments((await claimLinkToken(db, 'status', id))!, deps())).toBeNull();
    expect(await verifiedDocuments('1.nope', deps())).toBeNull();
    await revokeClaimLinks(db, id);
    expect(await verifiedDocuments(token, deps())).toBeNull();
  });
});
