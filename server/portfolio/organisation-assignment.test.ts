// Which organisation a claim belongs to, against a real database. An instruction from an address at a
// registered domain names that organisation, but anyone can type an address: it counts for the
// organisation (organisation_id: its portfolio, CSV and figures) only once proven, by its sender being
// signed in with that organisation's portfolio cookie, by its sender confirming it from the acknowledgement
// sent to that address, or by a CRM event naming the organisation.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCrmEventsHandler } from '@/server/crm/crm-events';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import {
  instructionConfirmValue,
  instructionStanding,
  isInstructionConfirmValue,
  organisationAwaitingProof,
  proveInstruction,
} from '@/server/claims/instruction-proof';
import { linkFor, registerOrganisation } from '@/server/portfolio/organisations';
import { endSession, linkStanding, newPortfolioLink, openPortfolioLink, portfolioCookieName } from '@/server/portfolio/portfolio-access';
import { secureClaimCookie } from '@/server/claims/link-exchange';
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
const namedOf = async (id: number) =>
  (
    await db.execute({
      sql: 'SELECT claimed_organisation_id AS claimed, organisation_proof AS proof FROM enquiries WHERE id = ?',
      args: [id],
    })
  ).rows[0];

/** The session cookie's name for a request without a Host, as the contact handler is given one here (the site's own scheme). */
const COOKIE = portfolioCookieName(secureClaimCookie(null));

/** The portfolio cookie of a person of the organisation at `domain`, as the browser holds it after opening a new link of theirs. */
async function signedIn(domain: string, address: string, name = COOKIE): Promise<string> {
  const link = await linkFor(db, domain, address, NOW);
  if ('error' in link) throw new Error(link.error);
  const standing = await linkStanding(db, link.token, NOW);
  if (standing.kind === 'dead' || standing.holder.personId === null) throw new Error('the printed link is dead');
  const opening = await openPortfolioLink(db, await newPortfolioLink(db, standing.holder.personId, NOW), NOW, 'Firefox');
  if (opening.kind !== 'opened') throw new Error(`the link did not open: ${opening.kind}`);
  return `${name}=${opening.session}`;
}

describe('an instruction from an address at a registered domain', () => {
  it('names the organisation but counts for none until proven; a homeowner or an enquiry without a claim names none', async () => {
    const byAdjuster = await submitEnquiry(db, instructionFields('Desk@LA.example', 'loss-adjuster'));
    const byInsurer = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-9'));
    const unregistered = await submitEnquiry(db, instructionFields('desk@elsewhere.example', 'insurer', 'ELS-1'));
    // A homeowner writing from an address at the insurer's domain does not instruct for it.
    const homeowner = await submitEnquiry(db, { email: 'staff@mutual.example', claimRole: 'homeowner', postcode: 'G65 0AA' });
    const noClaim = await submitEnquiry(db, { email: 'office@adjusters.example', subject: 'A question' });
    const all = [byAdjuster, byInsurer, unregistered, homeowner, noClaim];
    expect(await Promise.all(all.map((stored) => organisationOf(stored.id)))).toEqual([null, null, null, null, null]);
    expect(await Promise.all(all.map(async (stored) => (await namedOf(stored.id))?.claimed ?? null))).toEqual([
      adjusters,
      insurer,
      null,
      null,
      null,
    ]);
    expect(await instructionStanding(db, byInsurer.id)).toEqual({
      kind: 'unconfirmed',
      organisation: 'Example Mutual',
      domain: 'mutual.example',
    });
    expect(await instructionStanding(db, homeowner.id)).toBeNull();
  });

  it('sent signed in with that organisation’s portfolio cookie, counts for it at once; another organisation’s cookie proves nothing', async () => {
    const own = await submitEnquiry(db, instructionFields('desk@adjusters.example', 'loss-adjuster', 'LA-1'), {
      cookie: await signedIn('adjusters.example', 'desk@adjusters.example'),
    });
    expect(await organisationOf(own.id)).toBe(adjusters);
    expect(await namedOf(own.id)).toMatchObject({ claimed: adjusters, proof: 'session' });
    expect(await instructionStanding(db, own.id)).toEqual({ kind: 'proven', organisation: 'Loss Adjusters Ltd', proof: 'session' });

    const crossed = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-2'), {
      cookie: await signedIn('adjusters.example', 'desk@adjusters.example'),
    });
    expect(await organisationOf(crossed.id)).toBeNull();
    const forged = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-3'), {
      cookie: `${COOKIE}=${'A'.repeat(43)}`,
    });
    expect(await organisationOf(forged.id)).toBeNull();
    // The session's value under the other scheme's name is not read.
    const otherName = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-6'), {
      cookie: await signedIn('mutual.example', 'claims@mutual.example', portfolioCookieName(!secureClaimCookie(null))),
    });
    expect(await organisationOf(otherName.id)).toBeNull();
    // A signed-out (ended) session proves nothing.
    const cookie = await signedIn('mutual.example', 'claims@mutual.example');
    await endSession(db, cookie.slice(cookie.indexOf('=') + 1));
    const ended = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-7'), { cookie });
    expect(await organisationOf(ended.id)).toBeNull();
  });

  it('is confirmed by its sender with the cookie only the acknowledgement’s link sets: once, for that claim alone', async () => {
    const first = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-4'));
    const second = await submitEnquiry(db, instructionFields('claims@mutual.example', 'insurer', 'MUT-5'));
    expect(await organisationAwaitingProof(db, first.id)).toBe('Example Mutual');
    const value = (await instructionConfirmValue(db, first.id))!;
    expect(value).toMatch(/^[1-9][0-9]*\.[A-Za-z0-9_-]{32}$/);
    expect(await isInstructionConfirmValue(db, first.id, value)).toBe(true);
    expect(await isInstructionConfirmValue(db, second.id, value)).toBe(false);
    expect(await isInstructionConfirmValue(db, first.id, `${first.id}.${'A'.repeat(32)}`)).toBe(false);
    expect(await isInstructionConfirmValue(db, first.id, undefined)).toBe(false);

    expect(await proveInstruction(db, first.id, 'mailbox')).toBe(true);
    expect(await organisationOf(first.id)).toBe(insurer);
    expect(await namedOf(first.id)).toMatchObject({ proof: 'mailbox' });
    expect(await organisationOf(second.id)).toBeNull();
    // Proven once: a second confirmation changes nothing, and the link sets no confirm cookie any more.
    expect(await proveInstruction(db, first.id, 'mailbox')).toBe(false);
    expect(await instructionConfirmValue(db, first.id)).toBeNull();
    // Nothing to prove for a homeowner's claim.
    const homeowner = await submitEnquiry(db, { email: 'jo@mutual.example', claimRole: 'homeowner', postcode: 'G65 0AA' });
    expect(await instructionConfirmValue(db, homeowner.id)).toBeNull();
    expect(await proveInstruction(db, homeowner.id, 'mailbox')).toBe(false);
    expect(await organisationOf(homeowner.id)).toBeNull();
  });

  it('each one waiting for proof is acknowledged, so each can be confirmed; other enquiries from one address get one a day', async () => {
    const acknowledge = { perHour: 50, perClient: 10 };
    const acknowledged = async (id: number) =>
      Number(
        (
          await db.execute({
            sql: "SELECT count(*) AS n FROM enquiry_notifications WHERE enquiry_id = ? AND kind = 'acknowledgement'",
            args: [id],
          })
        ).rows[0]?.n,
      );
    const instructions = [];
    for (let index = 0; index < 10; index += 1)
      instructions.push(
        await storeEnquiry(
          db,
          newEnquiry({ ...instructionFields('desk@adjusters.example', 'loss-adjuster', `LA-${index + 10}`), acknowledge }),
          NOW + index,
        ),
      );
    expect(await Promise.all(instructions.map((stored) => acknowledged(stored.id)))).toEqual(Array(10).fill(1));
    const questions = [];
    for (let index = 0; index < 3; index += 1)
      questions.push(
        await storeEnquiry(
          db,
          newEnquiry({ email: 'jo@example.com', subject: `Question ${index}`, acknowledge, clientAddress: '198.51.100.20' }),
          NOW + index,
        ),
      );
    expect(await Promise.all(questions.map((stored) => acknowledged(stored.id)))).toEqual([1, 0, 0]);
  });

  it('is not named for a suspect instruction until a retry of it is accepted', async () => {
    const fields = instructionFields('desk@adjusters.example');
    const suspect = await storeEnquiry(db, newEnquiry({ ...fields, disposition: 'suspect', verification: 'low-score' }), NOW);
    expect(await namedOf(suspect.id)).toMatchObject({ claimed: null });
    const accepted = await storeEnquiry(db, newEnquiry(fields), NOW + 1000);
    expect(accepted).toMatchObject({ id: suspect.id, duplicate: true });
    expect(await namedOf(suspect.id)).toMatchObject({ claimed: adjusters, proof: null });
    expect(await organisationOf(suspect.id)).toBeNull();
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
    expect(await namedOf(id)).toMatchObject({ proof: 'company' });

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
