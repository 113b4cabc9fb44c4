// The operator's register of instructing organisations against a real database: registering and
// updating, the links printed for them, the revocations that end those links, and suspending,
// resuming and removing an organisation.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accessLogOf,
  linkFor,
  listOrganisations,
  registerOrganisation,
  removeOrganisation,
  resumeOrganisation,
  revokeAddress,
  revokeOrganisation,
  sessionsOfOrganisation,
  standardsInForce,
  suspendOrganisation,
} from '@/server/portfolio/organisations';
import {
  markPortfolioUse,
  newAddressLink,
  openPortfolioLink,
  viewerOfSession,
  type LinkOpening,
} from '@/server/portfolio/portfolio-access';
import { organisationOfAddress } from '@/server/ledger/instructing-organisation';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { instructionFields } from '@/tests/support/instruction';
import { submitEnquiry } from '@/tests/support/stored-enquiry';
import { business } from '@/content/business';

const T0 = Date.parse('2026-11-02T10:00:00Z');
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

/** A printed link's token, or the failure's words as an error. */
async function printed(domain: string, address: string | null, now = T0): Promise<string> {
  const made = await linkFor(db, domain, address, now);
  if ('error' in made) throw new Error(made.error);
  return made.token;
}

/** A link printed for the address and opened at once in `browser`: the session's cookie value. */
async function signedIn(domain: string, address: string | null, now = T0, browser = 'Firefox'): Promise<string> {
  const opening = await openPortfolioLink(db, await printed(domain, address, now), now, browser);
  if (opening.kind !== 'opened') throw new Error(`the link did not open: ${opening.kind}`);
  return opening.session;
}

const opens = async (token: string, now: number) => (await openPortfolioLink(db, token, now, 'Firefox')).kind;
const viewerOf = (opening: LinkOpening) => (opening.kind === 'opened' ? opening.viewer : null);

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
    expect(again).toMatchObject({
      id: first.id,
      created: false,
      domains: ['adjusters.example', 'new.example'],
      dropped: ['la.example'],
      ended: [],
    });
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
      expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(viewerOf(await openPortfolioLink(db, made.token, T0, 'Firefox'))?.organisationName).toBe('Loss Adjusters Ltd');
    }
    // Each --link is a new link, for one opening.
    const twice = [await printed('la.example', 'ann@la.example'), await printed('la.example', 'ann@la.example')];
    expect(twice[0]).not.toBe(twice[1]);
    expect(await Promise.all(twice.map((token) => opens(token, T0)))).toEqual(['opened', 'opened']);
    expect(await opens(twice[0]!, T0)).toBe('used-or-old');
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
    const annSession = await signedIn('la.example', 'ann@la.example');
    await markPortfolioUse(db, (await viewerOfSession(db, annSession, T0 + 60_000))!, T0 + 60_000);
    const annLink = await printed('la.example', 'ann@la.example');
    const office = await printed('adjusters.example', null);
    const other = await printed('other.example', 'bob@other.example');
    const otherSession = await signedIn('other.example', 'bob@other.example');

    const revoked = await revokeOrganisation(db, 'LA.example', T0 + 120_000);
    expect(revoked).toMatchObject({
      organisation: { name: 'Loss Adjusters Ltd' },
      ended: [
        { email: 'ann@la.example', lastUsedMs: T0 + 60_000 },
        { email: null, lastUsedMs: null },
      ],
    });
    expect(await opens(annLink, T0 + 130_000)).toBe('dead');
    expect(await viewerOfSession(db, annSession, T0 + 130_000)).toBeNull();
    expect(await opens(office, T0 + 130_000)).toBe('dead');
    expect(await sessionsOfOrganisation(db, (revoked as { organisation: { id: number } }).organisation.id, T0 + 130_000)).toEqual([]);
    expect((await viewerOfSession(db, otherSession, T0 + 130_000))?.organisationName).toBe('Other plc');
    expect(viewerOf(await openPortfolioLink(db, other, T0 + 130_000, 'Firefox'))?.organisationName).toBe('Other plc');

    // The operator's own --link gives Ann a new one that works; the old one stays ended.
    const again = await printed('la.example', 'ann@la.example', T0 + 200_000);
    expect(viewerOf(await openPortfolioLink(db, again, T0 + 200_000, 'Firefox'))?.email).toBe('ann@la.example');
    expect(await opens(annLink, T0 + 200_000)).toBe('used-or-old');
    expect(await revokeOrganisation(db, 'nowhere.example', T0)).toMatchObject({ error: expect.stringContaining('nowhere.example') });
  });

  it('--revoke-address ends one person’s link and pages alone', async () => {
    await registerOrganisation(db, adjusters, T0);
    const ann = await printed('la.example', 'ann@la.example');
    const cat = await printed('la.example', 'cat@la.example');
    const annSession = await signedIn('la.example', 'ann@la.example');
    const catSession = await signedIn('la.example', 'cat@la.example');
    expect(await revokeAddress(db, ' ANN@la.example', T0 + 1)).toEqual({ organisations: ['Loss Adjusters Ltd'] });
    expect(await opens(ann, T0 + 2)).toBe('dead');
    expect(await viewerOfSession(db, annSession, T0 + 2)).toBeNull();
    expect((await viewerOfSession(db, catSession, T0 + 2))?.email).toBe('cat@la.example');
    expect(viewerOf(await openPortfolioLink(db, cat, T0 + 2, 'Firefox'))?.email).toBe('cat@la.example');
    expect(await revokeAddress(db, 'ann@la.example', T0 + 3)).toEqual({
      error: 'No portfolio link of ann@la.example works now: there is nothing to end.',
    });
  });

  it('links e-mailed and not yet opened, with no person yet, end with --revoke-address, --revoke and --suspend', async () => {
    const { id } = (await registerOrganisation(db, adjusters, T0)) as { id: number };
    const waiting = await newAddressLink(db, id, 'Dan@la.example', T0);
    expect(await revokeAddress(db, 'dan@LA.example', T0 + 1)).toEqual({ organisations: ['Loss Adjusters Ltd'] });
    expect(await opens(waiting, T0 + 2)).toBe('dead');
    // Revoked, a link e-mailed later opens nothing either, under any spelling.
    expect(await opens(await newAddressLink(db, id, 'dan+x@la.example', T0 + 3), T0 + 4)).toBe('dead');

    const eve = await newAddressLink(db, id, 'eve@la.example', T0);
    await revokeOrganisation(db, 'la.example', T0 + 5);
    expect(await opens(eve, T0 + 6)).toBe('used-or-old');
    const fay = await newAddressLink(db, id, 'fay@la.example', T0 + 7);
    await suspendOrganisation(db, 'la.example', T0 + 8);
    await resumeOrganisation(db, 'la.example', T0 + 9);
    expect(await opens(fay, T0 + 10)).toBe('used-or-old');
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

describe('registering again without a domain', () => {
  it('ends the sessions and unopened links of its people at that domain, and says whose; the rest keep theirs', async () => {
    await registerOrganisation(db, adjusters, T0);
    const annSession = await signedIn('la.example', 'ann@la.example');
    await markPortfolioUse(db, (await viewerOfSession(db, annSession, T0 + 60_000))!, T0 + 60_000);
    const annLink = await printed('la.example', 'ann@la.example');
    const danLink = await printed('la.example', 'dan@la.example');
    const catSession = await signedIn('adjusters.example', 'cat@adjusters.example');
    const officeSession = await signedIn('la.example', null);
    // Revoked before: not ended again.
    await printed('la.example', 'leaver@la.example');
    await revokeAddress(db, 'leaver@la.example', T0);

    const again = await registerOrganisation(db, { ...adjusters, domains: ['adjusters.example'] }, T0 + 120_000);
    expect(again).toMatchObject({
      dropped: ['la.example'],
      ended: [
        { email: 'ann@la.example', lastUsedMs: T0 + 60_000 },
        { email: 'dan@la.example', lastUsedMs: null },
      ],
    });
    expect(await viewerOfSession(db, annSession, T0 + 130_000)).toBeNull();
    expect(await opens(annLink, T0 + 130_000)).toBe('dead');
    expect((await viewerOfSession(db, catSession, T0 + 130_000))?.email).toBe('cat@adjusters.example');
    expect((await viewerOfSession(db, officeSession, T0 + 130_000))?.email).toBeNull();
    const sessions = await sessionsOfOrganisation(db, (again as { id: number }).id, T0 + 130_000);
    expect(sessions.map((session) => session.email)).toEqual([null, 'cat@adjusters.example']);

    // The domain given back: what was ended stays ended, and a new link opens.
    await registerOrganisation(db, adjusters, T0 + 200_000);
    expect(await viewerOfSession(db, annSession, T0 + 200_000)).toBeNull();
    expect(await opens(danLink, T0 + 200_000)).toBe('used-or-old');
    expect(await opens(await printed('la.example', 'dan@la.example', T0 + 200_000), T0 + 200_000)).toBe('opened');
  });
});

describe('suspending, resuming and removing an organisation', () => {
  it('--suspend ends every session and unopened link of its people at once and says whose; nothing opens until --resume', async () => {
    await registerOrganisation(db, adjusters, T0);
    await registerOrganisation(db, { name: 'Other plc', domains: ['other.example'], standards: [] }, T0);
    const annSession = await signedIn('la.example', 'ann@la.example');
    await markPortfolioUse(db, (await viewerOfSession(db, annSession, T0 + 60_000))!, T0 + 60_000);
    const officeLink = await printed('adjusters.example', null);
    const otherSession = await signedIn('other.example', 'bob@other.example');

    const suspended = await suspendOrganisation(db, 'LA.example', T0 + 120_000);
    expect(suspended).toMatchObject({
      organisation: { name: 'Loss Adjusters Ltd', domains: ['adjusters.example', 'la.example'] },
      ended: [
        { email: 'ann@la.example', lastUsedMs: T0 + 60_000 },
        { email: null, lastUsedMs: null },
      ],
    });
    const id = (suspended as { organisation: { id: number } }).organisation.id;
    expect(await viewerOfSession(db, annSession, T0 + 130_000)).toBeNull();
    expect(await opens(officeLink, T0 + 130_000)).toBe('dead');
    expect(await sessionsOfOrganisation(db, id, T0 + 130_000)).toEqual([]);
    // No link is printed while it is suspended, and a second --suspend says it already is.
    expect(await linkFor(db, 'la.example', 'ann@la.example', T0 + 140_000)).toEqual({
      error: 'Loss Adjusters Ltd is suspended: no link of it opens. Switch it on first with --resume la.example.',
    });
    expect(await suspendOrganisation(db, 'la.example', T0 + 140_000)).toEqual({ error: 'Loss Adjusters Ltd is already suspended.' });
    expect((await viewerOfSession(db, otherSession, T0 + 130_000))?.organisationName).toBe('Other plc');
    // Its domains still assign claims, and it is still listed.
    expect(await organisationOfAddress(db, 'desk@la.example')).toBe(id);
    expect((await listOrganisations(db)).map((organisation) => organisation.name)).toEqual(['Loss Adjusters Ltd', 'Other plc']);
    const log = await accessLogOf(db, 'la.example', 2);
    expect('entries' in log && log.entries.map(({ action, email, detail }) => [action, email, detail])[0]).toEqual([
      'revoked',
      null,
      'suspended',
    ]);

    expect(await resumeOrganisation(db, 'adjusters.example', T0 + 200_000)).toMatchObject({ organisation: { id } });
    // What the suspension ended stays ended; a new link opens.
    expect(await viewerOfSession(db, annSession, T0 + 200_000)).toBeNull();
    expect(await opens(officeLink, T0 + 200_000)).toBe('used-or-old');
    const after = await signedIn('la.example', 'ann@la.example', T0 + 200_000, 'Safari');
    expect((await viewerOfSession(db, after, T0 + 200_000))?.email).toBe('ann@la.example');

    for (const refused of [
      await suspendOrganisation(db, 'nowhere.example', T0),
      await resumeOrganisation(db, 'nowhere.example', T0),
      await removeOrganisation(db, 'nowhere.example'),
    ])
      expect(refused).toEqual({ error: 'No organisation is registered for nowhere.example (npm run insurers -- --list shows them).' });
  });

  it('--log’s sessions are the live ones of its people, newest first, with their browser', async () => {
    await registerOrganisation(db, adjusters, T0);
    await registerOrganisation(db, { name: 'Other plc', domains: ['other.example'], standards: [] }, T0);
    const DAY_MS = 24 * 60 * 60_000;
    await signedIn('la.example', 'ann@la.example', T0, 'Firefox');
    const phone = await signedIn('la.example', 'ann@la.example', T0 + DAY_MS, 'Safari');
    await signedIn('adjusters.example', null, T0 + 2 * DAY_MS, 'Edge');
    await signedIn('other.example', 'bob@other.example', T0, 'Chrome');
    await markPortfolioUse(db, (await viewerOfSession(db, phone, T0 + 20 * DAY_MS))!, T0 + 20 * DAY_MS);
    const id = (await organisationOfAddress(db, 'ann@la.example'))!;
    // 31 days on: the first session has lapsed.
    expect(await sessionsOfOrganisation(db, id, T0 + 31 * DAY_MS)).toEqual([
      { createdMs: T0 + 2 * DAY_MS, lastUsedMs: T0 + 2 * DAY_MS, browser: 'Edge', email: null },
      { createdMs: T0 + DAY_MS, lastUsedMs: T0 + 20 * DAY_MS, browser: 'Safari', email: 'ann@la.example' },
    ]);
  });

  it('--remove takes it away with its domains, people, links, sessions and log; its claims stay, no organisation’s', async () => {
    await registerOrganisation(db, adjusters, T0);
    await registerOrganisation(db, { name: 'Other plc', domains: ['other.example'], standards: [] }, T0);
    const id = (await organisationOfAddress(db, 'ann@la.example'))!;
    const other = (await organisationOfAddress(db, 'bob@other.example'))!;
    const annSession = await signedIn('la.example', 'ann@la.example');
    await printed('adjusters.example', null);
    const otherSession = await signedIn('other.example', 'bob@other.example');
    const claims = [
      await submitEnquiry(db, instructionFields('desk@la.example', 'loss-adjuster', 'LA-1')),
      await submitEnquiry(db, instructionFields('desk@la.example', 'loss-adjuster', 'LA-2')),
      await submitEnquiry(db, instructionFields('claims@other.example', 'insurer', 'OT-1')),
    ];
    await db.execute({ sql: 'UPDATE enquiries SET organisation_id = ? WHERE id IN (?, ?)', args: [id, claims[0]!.id, claims[1]!.id] });
    await db.execute({ sql: 'UPDATE enquiries SET organisation_id = ? WHERE id = ?', args: [other, claims[2]!.id] });

    expect(await removeOrganisation(db, 'la.example')).toMatchObject({
      organisation: { id, name: 'Loss Adjusters Ltd', domains: ['adjusters.example', 'la.example'] },
      claims: 2,
    });
    expect(await viewerOfSession(db, annSession, T0 + 1)).toBeNull();
    expect(await organisationOfAddress(db, 'ann@la.example')).toBeNull();
    expect((await listOrganisations(db)).map((organisation) => organisation.name)).toEqual(['Other plc']);
    const rows = async (sql: string) => (await db.execute(sql)).rows.map((row) => Object.values(row));
    expect(await rows('SELECT organisation_id FROM organisation_people')).toEqual([[other]]);
    expect(await rows('SELECT DISTINCT organisation_id FROM portfolio_access_log')).toEqual([[other]]);
    expect(await rows('SELECT count(*) FROM portfolio_links')).toEqual([[1]]);
    expect(await rows('SELECT count(*) FROM portfolio_sessions')).toEqual([[1]]);
    expect(await rows('SELECT id, organisation_id, claimed_organisation_id FROM enquiries ORDER BY id')).toEqual([
      [claims[0]!.id, null, null],
      [claims[1]!.id, null, null],
      [claims[2]!.id, other, other],
    ]);
    expect((await viewerOfSession(db, otherSession, T0 + 1))?.organisationName).toBe('Other plc');
    // Its name and domains are free to register again, as a new organisation.
    expect(await registerOrganisation(db, adjusters, T0 + 2)).toMatchObject({ created: true });
    expect(await removeOrganisation(db, 'nowhere.example')).toMatchObject({ error: expect.stringContaining('nowhere.example') });
  });
});
