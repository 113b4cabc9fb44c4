// Which organisation a claim belongs to, against a real database: set when an instruction is stored
// from an address at a registered domain (the contact form and the /insurers instruction form), and
// by a CRM event naming a registered domain.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCrmEventsHandler } from '@/server/crm/crm-events';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import { registerOrganisation } from '@/server/portfolio/organisations';
import { crmEventRequest, testCrmEventsSecret } from '@/tests/support/crm-event';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { instructionFields } from '@/tests/support/instruction';
import { newEnquiry, submitEnquiry } from '@/tests/support/stored-enquiry';

const NOW = Date.parse('2026-12-01T09:00:00Z');
let db: Client;
let cleanup: () => void;
let adjusters: number;
let insurer: number;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  const register = async (name: string, domains: string[]) =>
    ((await registerOrganisation(db, { name, domains, standards: [] }, NOW)) as { id: number }).id;
  adjusters = await register('Loss Adjusters Ltd', ['adjusters.example', 'la.example']);
  insurer = await register('Example Mutual', ['mutual.example']);
});
afterEach(() => cleanup());

const organisationOf = async (id: number) =>
  (await db.execute({ sql: 'SELECT organisation_id FROM enquiries WHERE id = ?', args: [id] })).rows[0]?.organisation_id ?? null;

describe('a claim’s instructing organisation', () => {
  it('is the one registered for the domain an insurer’s or loss adjuster’s instruction came from', async () => {
    const byAdjuster = await submitEnquiry(db, instructionFields('Desk@LA.example', 'loss-adjuster'));
    const byInsurer = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-9'));
    const unregistered = await submitEnquiry(db, instructionFields('desk@elsewhere.example', 'insurer', 'ELS-1'));
    // A homeowner writing from an address at the insurer's domain does not instruct for it.
    const homeowner = await submitEnquiry(db, { email: 'staff@mutual.example', claimRole: 'homeowner', postcode: 'G65 0AA' });
    const noClaim = await submitEnquiry(db, { email: 'office@adjusters.example', subject: 'A question' });
    expect(await Promise.all([byAdjuster, byInsurer, unregistered, homeowner, noClaim].map((stored) => organisationOf(stored.id)))).toEqual(
      [adjusters, insurer, null, null, null],
    );
  });

  it('is not given to a suspect instruction until a retry of it is accepted', async () => {
    const fields = instructionFields('desk@adjusters.example');
    const suspect = await storeEnquiry(db, newEnquiry({ ...fields, disposition: 'suspect', verification: 'low-score' }), NOW);
    expect(await organisationOf(suspect.id)).toBeNull();
    const accepted = await storeEnquiry(db, newEnquiry(fields), NOW + 1000);
    expect(accepted).toMatchObject({ id: suspect.id, duplicate: true });
    expect(await organisationOf(suspect.id)).toBe(adjusters);
  });
});

describe('a CRM event naming the organisation', () => {
  const handler = () => createCrmEventsHandler({ secret: testCrmEventsSecret, db: async () => db, now: () => NOW });
  const event = (data: Record<string, unknown>) => crmEventRequest('claim.updated', data, { signedAt: NOW, happened: new Date(NOW) });

  it('sets it by a registered domain, and refuses an unknown or malformed one without applying the event', async () => {
    const { id, reference } = await submitEnquiry(db, { email: 'jo@example.com', postcode: 'G65 0AA' }, { at: NOW - 60_000 });
    expect(await organisationOf(id)).toBeNull();
    expect(await handler()(event({ reference, stage: 'contacted', organisation: 'LA.example' }))).toEqual({
      status: 200,
      body: { success: true, applied: true, current: true },
    });
    expect(await organisationOf(id)).toBe(adjusters);

    const unknown = await handler()(event({ reference, stage: 'surveyed', organisation: 'nowhere.example' }));
    expect(unknown).toMatchObject({
      status: 400,
      body: { errors: [{ path: 'data.organisation', msg: 'is not a domain of an organisation registered with npm run insurers' }] },
    });
    const malformed = await handler()(event({ reference, stage: 'surveyed', organisation: 42 }));
    expect(malformed).toMatchObject({
      status: 400,
      body: { errors: [{ path: 'data.organisation', msg: 'must be an e-mail domain, such as adjusters.example' }] },
    });
    expect((await db.execute({ sql: 'SELECT count(*) AS n FROM claim_stage_changes WHERE enquiry_id = ?', args: [id] })).rows[0]?.n).toBe(
      1,
    );

    // Another event may move it to another organisation; one without `organisation` leaves it.
    await handler()(event({ reference, stage: 'surveyed', organisation: 'mutual.example' }));
    await handler()(event({ reference, stage: 'with-insurer' }));
    expect(await organisationOf(id)).toBe(insurer);
  });
});
