// The operator's register of instructing organisations against a real database: registering and
// updating, the links printed for them, and the revocations that end those links.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accessLogOf,
  linkFor,
  listOrganisations,
  registerOrganisation,
  revokeAddress,
  revokeOrganisation,
  standardsInForce,
} from '@/server/portfolio/organisations';
import { markPortfolioUse, portfolioSessionValue, viewerOfLinkToken, viewerOfSession } from '@/server/portfolio/portfolio-access';
import { organisationOfAddress } from '@/server/ledger/instructing-organisation';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { business } from '@/content/business';

const T0 = Date.parse('2026-11-02T10:00:00Z');
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const adjusters = { name: 'Loss Adjusters Ltd', domains: ['Adjusters.example', 'la.example.'], standards: ['contact=2h', 'survey=3wd'] };
const CONFIRMED = { ...business.forInsurers, placeholder: false };
const published = [
  { key: 'contact', code: '4h', words: '4 working hours', own: false },
  { key: 'survey', code: '2wd', words: '2 working days', own: false },
  { key: 'report', code: '2wd', words: '2 working days', own: false },
];

describe('registering an organisation', () => {
  it('keeps its domains lower-case and its own standards, the company’s published ones for the rest', async () => {
    const registered = await registerOrganisation(db, adjusters, T0);
    expect(registered).toMatchObject({
      name: 'Loss Adjusters Ltd',
      created: true,
      domains: ['adjusters.example', 'la.example'],
      dropped: [],
      ownStandards: { contact: { workingHours: 2 }, survey: { workingDays: 3 } },
    });
    const own = (registered as { ownStandards: Parameters<typeof standardsInForce>[0] }).ownStandards;
    expect(standardsInForce(own, CONFIRMED)).toEqual([
      { key: 'contact', code: '2h', words: '2 working hours', own: true },
      { key: 'survey', code: '3wd', words: '3 working days', own: true },
      { key: 'report', code: '2wd', words: '2 working days', own: false },
    ]);
    expect(await organisationOfAddress(db, 'Ann@LA.example')).toBe((registered as { id: number }).id);
    expect(standardsInForce(null, CONFIRMED)).toEqual(published);
  });

  it('is held to none of the company’s published standards while they are placeholders', () => {
    expect(standardsInForce(null, { ...business.forInsurers, placeholder: true })).toEqual([]);
    expect(standardsInForce({ contact: { workingHours: 2 } }, { ...business.forInsurers, placeholder: true })).toEqual([
      { key: 'contact', code: '2h', words: '2 working hours', own: true },
    ]);
  });

  it('run again under the same name, its domains and standards become those given', async () => {
    const first = (await registerOrganisation(db, adjusters, T0)) as { id: number };
    const again = await registerOrganisation(
      db,
      { name: ' Loss  Adjusters Ltd ', domains: ['adjusters.example', 'new.example'], standards: [] },
      T0 + 1,
    );
    expect(again).toMatchObject({ id: first.id, created: false, domains: ['adjusters.example', 'new.example'], dropped: ['la.example'] });
    expect((again as { ownStandards: unknown }).ownStandards).toBeNull();
    expect(await organisationOfAddress(db, 'ann@la.example')).toBeNull();
    expect(await listOrganisations(db)).toHaveLength(1);
  });

  it('refuses a domain of another organisation, a bad domain or standard, and a standard given twice, changing nothing', async () => {
    await registerOrganisation(db, adjusters, T0);
    const other = (domains: string[], standards: string[] = []) => registerOrganisation(db, { name: 'Other plc', domains, standards }, T0);
    expect(await other(['other.example', 'LA.example'])).toEqual({
      error: 'la.example is already a domain of Loss Adjusters Ltd: an e-mail domain belongs to one organisation.',
    });
    expect(await other(['ann@other.example'])).toEqual({ error: '"ann@other.example" is an address: give its domain (other.example).' });
    expect(await other(['other'])).toEqual({ error: '"other" is not an e-mail domain (such as adjusters.example.co.uk).' });
    expect(await other([])).toEqual({ error: 'Give at least one --domain its instructions come from.' });
    expect(await other(['other.example'], ['contact=2days'])).toMatchObject({
      error: expect.stringContaining('"contact=2days" is not a standard'),
    });
    expect(await other(['other.example'], ['contact=2h', 'contact=4h'])).toEqual({
      error: 'The contact standard is given twice: give each of contact, survey and report once.',
    });
    expect((await listOrganisations(db)).map((organisation) => organisation.name)).toEqual(['Loss Adjusters Ltd']);
  });
});

describe('links and their revocation', () => {
  it('--link gives a person at one of its domains a working link, and an office link without an address', async () => {
    await registerOrganisation(db, adjusters, T0);
    const ann = await linkFor(db, 'la.example', 'Ann@la.example', T0);
    const office = await linkFor(db, 'adjusters.example', null, T0);
    for (const made of [ann, office]) {
      if ('error' in made) throw new Error(made.error);
      expect((await viewerOfLinkToken(db, made.token, T0))?.organisationName).toBe('Loss Adjusters Ltd');
    }
    expect(await linkFor(db, 'adjusters.example', 'bob@elsewhere.example', T0)).toEqual({
      error: 'bob@elsewhere.example is not at a domain of Loss Adjusters Ltd (adjusters.example, la.example).',
    });
    expect(await linkFor(db, 'nowhere.example', null, T0)).toEqual({
      error: 'No organisation is registered for nowhere.example (npm run insurers -- --list shows them).',
    });
    expect((await listOrganisations(db))[0]).toMatchObject({ claims: 0, people: 2 });
  });

  it('--revoke ends every link and open page of that organisation only, and says whose', async () => {
    await registerOrganisation(db, adjusters, T0);
    await registerOrganisation(db, { name: 'Other plc', domains: ['other.example'], standards: [] }, T0);
    const ann = (await linkFor(db, 'la.example', 'ann@la.example', T0)) as { token: string };
    const annViewer = (await viewerOfLinkToken(db, ann.token, T0))!;
    await markPortfolioUse(db, annViewer.personId, T0 + 60_000);
    const annSession = (await portfolioSessionValue(db, annViewer.personId))!;
    const office = (await linkFor(db, 'adjusters.example', null, T0)) as { token: string };
    const other = (await linkFor(db, 'other.example', 'bob@other.example', T0)) as { token: string };

    const revoked = await revokeOrganisation(db, 'LA.example', T0 + 120_000);
    expect(revoked).toMatchObject({
      organisation: { name: 'Loss Adjusters Ltd' },
      ended: [
        { email: 'ann@la.example', lastUsedMs: T0 + 60_000 },
        { email: null, lastUsedMs: null },
      ],
    });
    expect(await viewerOfLinkToken(db, ann.token, T0 + 130_000)).toBeNull();
    expect(await viewerOfSession(db, annSession, T0 + 130_000)).toBeNull();
    expect(await viewerOfLinkToken(db, office.token, T0 + 130_000)).toBeNull();
    expect((await viewerOfLinkToken(db, other.token, T0 + 130_000))?.organisationName).toBe('Other plc');

    // The operator's own --link gives Ann a new one that works.
    const again = (await linkFor(db, 'la.example', 'ann@la.example', T0 + 200_000)) as { token: string };
    expect((await viewerOfLinkToken(db, again.token, T0 + 200_000))?.email).toBe('ann@la.example');
    expect(await revokeOrganisation(db, 'nowhere.example', T0)).toMatchObject({ error: expect.stringContaining('nowhere.example') });
  });

  it('--revoke-address ends one person’s link and pages alone', async () => {
    await registerOrganisation(db, adjusters, T0);
    const ann = (await linkFor(db, 'la.example', 'ann@la.example', T0)) as { token: string };
    const cat = (await linkFor(db, 'la.example', 'cat@la.example', T0)) as { token: string };
    const annSession = (await portfolioSessionValue(db, (await viewerOfLinkToken(db, ann.token, T0))!.personId))!;
    expect(await revokeAddress(db, ' ANN@la.example', T0 + 1)).toEqual({ organisations: ['Loss Adjusters Ltd'] });
    expect(await viewerOfLinkToken(db, ann.token, T0 + 2)).toBeNull();
    expect(await viewerOfSession(db, annSession, T0 + 2)).toBeNull();
    expect((await viewerOfLinkToken(db, cat.token, T0 + 2))?.email).toBe('cat@la.example');
    expect(await revokeAddress(db, 'ann@la.example', T0 + 3)).toEqual({
      error: 'No portfolio link of ann@la.example works now: there is nothing to end.',
    });
  });

  it('--log lists what was done with the portfolio, newest first, who did it', async () => {
    await registerOrganisation(db, adjusters, T0);
    await linkFor(db, 'la.example', 'ann@la.example', T0);
    await linkFor(db, 'la.example', null, T0 + 1000);
    await revokeOrganisation(db, 'la.example', T0 + 2000);
    const log = await accessLogOf(db, 'adjusters.example', 10);
    expect('entries' in log && log.entries.map(({ atMs, action, email, detail }) => [atMs - T0, action, email, detail])).toEqual([
      [2000, 'revoked', null, 'every link (2 people)'],
      [1000, 'link-sent', null, 'printed by the operator'],
      [0, 'link-sent', 'ann@la.example', 'printed by the operator'],
    ]);
    expect('entries' in log && log.entries[0]!.personId).toBeNull();
  });
});
