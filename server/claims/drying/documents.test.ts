// A claim's drying documents against a real database: the PDFs read back with a text extractor, opened
// only by the status page's cookie, each issued once with its number, and verifiable for good.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimSessionValue, revokeClaimLinks, rotateClaimLinks } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { dryingDocumentResponse, verifiedDryingDocument } from '@/server/claims/drying/documents';
import { DOCUMENTS_PER_KIND_PER_DAY, type VerifiedDocument } from '@/server/claims/drying/issued-documents';
import type { ElectricityStatement } from '@/lib/drying-documents';
import { recordStageChange } from '@/server/claims/claim-status';
import { READING_ABOVE_GOAL } from '@/server/claims/drying/reopen';
import { erasePersonalData } from '@/server/upkeep/data-requests';
import { documentDateTime } from '@/server/claims/drying/pdf';
import { recordDryingVisit } from '@/server/claims/drying/record';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { pdfText } from '@/tests/support/pdf-text';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

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
  await submitEnquiry(db, { phone: '07700 900123', subject: 'Burst pipe', message: 'Water everywhere.', postcode: 'G67 1AA' });
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

/** A claim whose dehumidifier has run since `on` and runs still. */
async function claimRunning() {
  await submitEnquiry(db, { phone: '07700 900123', subject: 'Burst pipe', message: 'Water everywhere.', postcode: 'G67 1AA' });
  const id = 1;
  const machine = { kind: 'dehumidifier' as const, model: 'Ebac 2650e', watts: 700, count: 1, on: on.toISOString(), off: null, kwh: null };
  const readings = [{ location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value: 28, goal: 12 }];
  await recordDryingVisit(
    db,
    id,
    { reference: enquiryReference(id), visitAt: on.toISOString(), readings, equipment: [machine] },
    {
      source: 'crm',
      eventId: 'msg_1',
      now,
    },
  );
  return { id, reference: enquiryReference(id), session: (await claimSessionValue(db, 'status', id, now))! };
}

/** A verified statement's figures as issued; fails the test for anything else. */
function statementFigures(verified: VerifiedDocument | null): ElectricityStatement {
  if (verified?.state !== 'issued' || verified.kind !== 'statement')
    throw new Error(`Not an issued statement: ${JSON.stringify(verified)}`);
  return verified.figures;
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
    const { reference, session } = await claimDrying();
    const answer = await dryingDocumentResponse('statement', reference, session, rateForm('24.5'), deps());
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="electricity-statement-${reference}-E1.pdf"`);
    const text = await textOf(answer);
    for (const line of [
      words.statement.title,
      `Claim reference: ${reference}`,
      'Property: postcode G67 1AA',
      `Ebac 2650e dehumidifier 700 ${documentDateTime(on.toISOString())} ${documentDateTime(off.toISOString())} 168.0 117.6 rated W × hours`,
      'Total electricity used: 117.6 kWh',
      'At your unit rate of 24.5 p/kWh, the amount to claim: £28.81',
      words.statement.standingCharge,
      'Example Homecare Ltd, Registered in Scotland, company number SC000000',
      `/verify/${reference}-E1.`,
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

async function saveDried(id: number, reference: string, confirmedBy: string, at = now) {
  const pages = createClaimPages({ db: async () => db, now: () => at, tellCrm: false });
  const form = new FormData();
  form.append('formToken', newFormToken());
  form.append('stage', 'dried');
  form.append('confirmedBy', confirmedBy);
  const staff = (await claimSessionValue(db, 'update', id, at))!;
  expect(await pages.saveUpdate(reference, staff, form)).toMatchObject({ kind: 'saved' });
}

describe('the certificate of dryness', () => {
  it('is there once the staff page saved dried with a name, with first and last readings against the goal', async () => {
    const { id, reference, session } = await claimDrying();
    expect((await dryingDocumentResponse('certificate', reference, session, null, deps())).status).toBe(404);
    await saveDried(id, reference, 'Sam Fitter');

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
      `/verify/${reference}-C1.`,
    ])
      expect(text).toContain(line);
  });
});

/** The verification token a document prints: /verify/<number>.<signature>. */
const tokenIn = (text: string) => /\/verify\/(HC-[A-Z0-9-]+\.[A-Za-z0-9_-]{32})/.exec(text.replace(/\s+/g, ''))?.[1] ?? null;

describe('issued documents', () => {
  it('are issued once: the same request with nothing changed is the same document, byte for byte', async () => {
    const { reference, session } = await claimDrying();
    const first = await dryingDocumentResponse('statement', reference, session, rateForm('24.5'), deps());
    const again = await dryingDocumentResponse('statement', reference, session, rateForm('24.5'), {
      db: async () => db,
      now: now + 2 * HOUR_MS,
    });
    expect(again.headers.get('content-disposition')).toBe(first.headers.get('content-disposition'));
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);
    const [twice, atOnce] = await Promise.all(
      [rateForm('27'), rateForm('27')].map((form) => dryingDocumentResponse('statement', reference, session, form, deps())),
    );
    expect(twice!.headers.get('content-disposition')).toContain(`${reference}-E2.pdf`);
    expect(atOnce!.headers.get('content-disposition')).toContain(`${reference}-E2.pdf`);
  });

  it('keep the customer’s rate: a statement at 24.5 p and one at 27 p are two documents, both standing', async () => {
    const { reference, session } = await claimDrying();
    const at245 = tokenIn(await textOf(await dryingDocumentResponse('statement', reference, session, rateForm('24.5'), deps())))!;
    const at27 = tokenIn(await textOf(await dryingDocumentResponse('statement', reference, session, rateForm('27'), deps())))!;
    expect(at245).toMatch(new RegExp(`^${reference}-E1\\.`));
    expect(at27).toMatch(new RegExp(`^${reference}-E2\\.`));
    const first = await verifiedDryingDocument(at245, deps());
    const second = await verifiedDryingDocument(at27, deps());
    expect(first).toMatchObject({
      state: 'issued',
      kind: 'statement',
      superseded: null,
      figures: { cost: { pencePerKwh: 24.5, pence: 2881 } },
    });
    expect(second).toMatchObject({
      state: 'issued',
      kind: 'statement',
      superseded: null,
      figures: { cost: { pencePerKwh: 27, pence: 3175 } },
    });
  });

  it('show the figures as issued after the record changed, superseded by the next number', async () => {
    const { id, reference, session } = await claimDrying();
    const token = tokenIn(await textOf(await dryingDocumentResponse('statement', reference, session, null, deps())))!;
    const later = new Date(off.getTime() + HOUR_MS);
    const machine = {
      kind: 'air-mover' as const,
      model: 'Dri-Eaz Velo',
      watts: 200,
      count: 2,
      on: off.toISOString(),
      off: later.toISOString(),
      kwh: null,
    };
    await recordDryingVisit(
      db,
      id,
      { reference, visitAt: later.toISOString(), readings: [], equipment: [machine] },
      { source: 'crm', eventId: 'msg_3', now },
    );
    const next = await dryingDocumentResponse('statement', reference, session, null, deps());
    expect(next.headers.get('content-disposition')).toContain(`${reference}-E2.pdf`);
    expect(await verifiedDryingDocument(token, deps())).toMatchObject({
      state: 'issued',
      number: `${reference}-E1`,
      superseded: { by: `${reference}-E2` },
      figures: { totalKwh: 117.6, cost: null, postcode: 'G67 1AA' },
    });
  });

  it('are bounded per claim and kind: 40 rates in an hour make 10 statements, then 429 with the words, never 500; the same one again still comes', async () => {
    const { id, reference, session } = await claimDrying();
    const statuses: number[] = [];
    for (let rate = 1; rate <= 40; rate += 1) {
      const answer = await dryingDocumentResponse('statement', reference, session, rateForm(String(rate)), {
        db: async () => db,
        now: now + rate * 60_000,
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(await answer.text()).toBe('Too many documents were made for this claim today; the last one is still valid');
        expect(answer.headers.get('retry-after')).toBe('3600');
        expect(answer.headers.get('cache-control')).toBe('no-store');
      }
    }
    expect(statuses).toEqual([
      ...Array<number>(DOCUMENTS_PER_KIND_PER_DAY).fill(200),
      ...Array<number>(40 - DOCUMENTS_PER_KIND_PER_DAY).fill(429),
    ]);
    expect((await db.execute('SELECT count(*) AS issued FROM drying_documents')).rows[0]!.issued).toBe(DOCUMENTS_PER_KIND_PER_DAY);
    // A document already issued is the same document, not a new one: it still comes past the budget.
    const again = await dryingDocumentResponse('statement', reference, session, rateForm(String(DOCUMENTS_PER_KIND_PER_DAY)), {
      db: async () => db,
      now: now + 41 * 60_000,
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('content-disposition')).toContain(`${reference}-E${DOCUMENTS_PER_KIND_PER_DAY}.pdf`);
    // The certificate has a budget of its own, which trying rates does not spend.
    expect(
      (await dryingDocumentResponse('certificate', reference, session, null, { db: async () => db, now: now + 42 * 60_000 })).status,
    ).not.toBe(429);
    // A day after the first, the budget has room again.
    const nextDay = now + 24 * HOUR_MS + 2 * 60_000;
    const tomorrow = await dryingDocumentResponse(
      'statement',
      reference,
      (await claimSessionValue(db, 'status', id, nextDay))!,
      rateForm('41'),
      {
        db: async () => db,
        now: nextDay,
      },
    );
    expect(tomorrow.status).toBe(200);
    expect(tomorrow.headers.get('content-disposition')).toContain(`${reference}-E${DOCUMENTS_PER_KIND_PER_DAY + 1}.pdf`);
  });

  it('many at once cannot pass the budget: 30 different rates together make at most 10 statements', async () => {
    const { reference, session } = await claimDrying();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        dryingDocumentResponse('statement', reference, session, rateForm(String(index + 1)), deps()),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    const issued = Number((await db.execute('SELECT count(*) AS issued FROM drying_documents')).rows[0]!.issued);
    expect(issued).toBeLessThanOrEqual(DOCUMENTS_PER_KIND_PER_DAY);
    expect(statuses.filter((status) => status === 200)).toHaveLength(issued);
  });

  it('while machines run, a statement asked for every few minutes is made again at most once an hour', async () => {
    const { reference, session } = await claimRunning();
    const at = (minutes: number, form: FormData | null = null) =>
      dryingDocumentResponse('statement', reference, session, form, { db: async () => db, now: now + minutes * 60_000 });
    const first = await at(0);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    for (const minutes of [1, 10, 30, 59]) {
      const answer = await at(minutes);
      expect(answer.headers.get('content-disposition'), `${minutes} min`).toContain(`${reference}-E1.pdf`);
      expect(Buffer.from(await answer.arrayBuffer()).equals(firstBytes)).toBe(true);
    }
    // A rate within the hour: a document of its own, with the same figures as the hour's statement.
    const withRate = await at(40, rateForm('24.5'));
    expect(withRate.headers.get('content-disposition')).toContain(`${reference}-E2.pdf`);
    const e1 = statementFigures(await verifiedDryingDocument(tokenIn(await textOf(await at(45)))!, deps()));
    const e2 = statementFigures(await verifiedDryingDocument(tokenIn(await textOf(withRate))!, deps()));
    expect(e2.to).toBe(e1.to);
    expect(e2.totalKwh).toBe(e1.totalKwh);
    expect(e2.issuedAt).toBe(new Date(Math.floor((now + 40 * 60_000) / 60_000) * 60_000).toISOString());
    // Past the hour, the figures move on once.
    const later = await at(61);
    expect(later.headers.get('content-disposition')).toContain(`${reference}-E3.pdf`);
    expect((await at(75)).headers.get('content-disposition')).toContain(`${reference}-E3.pdf`);
    const e3 = statementFigures(await verifiedDryingDocument(tokenIn(await textOf(later))!, deps()));
    expect(e3.totalKwh).toBeGreaterThan(e1.totalKwh);
  });

  it('verify for good: a revoked or rotated claim link leaves the document as issued; a forged token opens nothing', async () => {
    const { id, reference, session } = await claimDrying();
    const token = tokenIn(await textOf(await dryingDocumentResponse('statement', reference, session, null, deps())))!;
    await revokeClaimLinks(db, id);
    await rotateClaimLinks(db);
    const verified = await verifiedDryingDocument(token, deps());
    expect(verified).toMatchObject({ state: 'issued', number: `${reference}-E1`, superseded: null, figures: { totalKwh: 117.6 } });
    expect(verified?.state === 'issued' && verified.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await verifiedDryingDocument(forged, deps())).toBeNull();
    expect(await verifiedDryingDocument(token.replace('-E1.', '-E2.'), deps())).toBeNull();
    expect(await verifiedDryingDocument(token.replace('-E1.', '-C1.'), deps())).toBeNull();
    expect(await verifiedDryingDocument(`1.${'A'.repeat(32)}`, deps())).toBeNull();
  });

  it('a certificate is withdrawn when a later reading above its goal sends the claim back to drying', async () => {
    const { id, reference, session } = await claimDrying();
    await saveDried(id, reference, 'Agnieszka Wójcik');
    const certificate = await dryingDocumentResponse('certificate', reference, session, null, deps());
    const text = await textOf(certificate);
    expect(text).toContain('by Agnieszka Wójcik');
    const token = tokenIn(text)!;
    expect(await verifiedDryingDocument(token, deps())).toMatchObject({ state: 'issued', kind: 'certificate', withdrawn: null });
    const wetAt = now + 2 * HOUR_MS;
    await recordStageChange(
      db,
      id,
      {
        stage: 'drying',
        waitingOn: null,
        nextDate: null,
        note: null,
        tellCustomer: true,
        source: 'staff',
        eventId: `${READING_ABOVE_GOAL}x`,
        at: wetAt,
      },
      wetAt,
    );
    expect(await verifiedDryingDocument(token, deps())).toMatchObject({
      state: 'issued',
      withdrawn: { at: new Date(wetAt).toISOString(), reason: 'reading-above-goal' },
    });
    expect((await dryingDocumentResponse('certificate', reference, session, null, { db: async () => db, now: wetAt })).status).toBe(404);
  });

  it('once the claim is erased, the verification page is told the record was deleted', async () => {
    const { reference, session } = await claimDrying();
    const token = tokenIn(await textOf(await dryingDocumentResponse('statement', reference, session, rateForm('24.5'), deps())))!;
    expect((await erasePersonalData(db, 'jo@example.com', { outboxDir: '/nonexistent' })).enquiries).toBe(1);
    const verified = await verifiedDryingDocument(token, deps());
    expect(verified).toMatchObject({ state: 'deleted', number: `${reference}-E1`, kind: 'statement' });
    expect(JSON.stringify(verified)).not.toContain('G67');
    const rows = await db.execute('SELECT figures, pdf, enquiry_id FROM drying_documents');
    expect(rows.rows.map((row) => [row.figures, row.pdf, row.enquiry_id])).toEqual([[null, null, null]]);
  });
});
