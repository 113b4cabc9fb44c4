// A claim link that does not verify, against a real database: it changes no cookie the visitor has.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimLinkToken, type ClaimLinkPurpose } from '@/server/claims/claim-links';
import { createClaimPages } from '@/server/claims/claim-pages';
import { exchangeLink } from '@/server/claims/link-exchange';
import { INSTRUCTION_CONFIRM_COOKIE, isInstructionConfirmValue } from '@/server/claims/instruction-proof';
import { registerOrganisation } from '@/server/portfolio/organisations';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { instructionFields } from '@/tests/support/instruction';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

/** The same claim's token with another MAC of the right shape. */
const forged = (token: string) =>
  `${token.split('.')[0]}.${token.split('.')[1]!.startsWith('A') ? 'B' : 'A'}${token.split('.')[1]!.slice(1)}`;

describe.each<ClaimLinkPurpose>(['status', 'update'])('a %s link with a wrong MAC', (purpose) => {
  it('sets no cookie and clears none: the session the visitor has still opens the claim', async () => {
    const { id } = await submitEnquiry(db);
    const reference = enquiryReference(id);
    const token = (await claimLinkToken(db, purpose, id))!;
    const opened = await exchangeLink(purpose, token, { db: async () => db, https: true });
    const session = /^claim-[a-z]+=([^;]+)/.exec(opened.headers.get('set-cookie') ?? '')![1];

    const answer = await exchangeLink(purpose, forged(token), { db: async () => db, https: true });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(await answer.text()).toContain(
      `<meta http-equiv="refresh" content="0; url=/claims/${reference}${purpose === 'update' ? '/update' : ''}">`,
    );

    const pages = createClaimPages({ db: async () => db });
    if (purpose === 'status') expect(await pages.statusBySession(reference, session)).toMatchObject({ status: { reference } });
    else expect(await pages.staffClaim(reference, session)).toMatchObject({ reference });
  });
});

describe('the status link of an instruction waiting for its sender’s proof', () => {
  it('sets the confirm cookie for that claim’s page beside its session; the staff link and a homeowner’s link do not', async () => {
    await registerOrganisation(db, { name: 'Example Mutual', domains: ['mutual.example'], standards: [] }, Date.now());
    const instruction = await submitEnquiry(db, instructionFields('claims@mutual.example'));
    const homeowner = await submitEnquiry(db, { email: 'jo@mutual.example', claimRole: 'homeowner', postcode: 'G65 0AA' });
    const cookiesOf = async (purpose: ClaimLinkPurpose, id: number) =>
      (await exchangeLink(purpose, (await claimLinkToken(db, purpose, id))!, { db: async () => db, https: true })).headers.getSetCookie();

    const opened = await cookiesOf('status', instruction.id);
    expect(opened.map((cookie) => cookie.split('=')[0])).toEqual(['claim-status', INSTRUCTION_CONFIRM_COOKIE]);
    const confirm = opened[1]!;
    expect(confirm).toContain(`Path=/claims/${enquiryReference(instruction.id)};`);
    expect(confirm).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    expect(await isInstructionConfirmValue(db, instruction.id, /^[^=]+=([^;]+)/.exec(confirm)![1])).toBe(true);
    // Opening the link proves nothing: a mail scanner opens every link.
    expect(
      (await db.execute({ sql: 'SELECT organisation_id FROM enquiries WHERE id = ?', args: [instruction.id] })).rows[0]?.organisation_id,
    ).toBeNull();

    expect((await cookiesOf('update', instruction.id)).map((cookie) => cookie.split('=')[0])).toEqual(['claim-update']);
    expect((await cookiesOf('status', homeowner.id)).map((cookie) => cookie.split('=')[0])).toEqual(['claim-status']);
  });
});
