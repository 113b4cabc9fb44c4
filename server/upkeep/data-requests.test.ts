import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { erasePersonalData, exportPersonalData } from '@/server/upkeep/data-requests';
import { enquiryReference } from '@/lib/enquiry-reference';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const jo = { name: 'Jo Bloggs', email: 'Jo@Example.com', phone: '0141 496 0001', subject: 'Roof leak', message: 'Water is coming in.' };
const sam = { name: 'Sam Other', email: 'sam@example.org', phone: '', subject: 'Cracked wall', message: 'A crack after the storm.' };

let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
  for (const body of [jo, sam, { ...jo, subject: 'Follow-up on the roof' }]) await submitEnquiry(db, body);
  await db.execute("UPDATE enquiry_notifications SET status = 'sent' WHERE enquiry_id = 1");
});
afterEach(() => cleanup());

describe("a person's request for their data", () => {
  it('exports every enquiry sent with the address (any case), with its client address and delivery state', async () => {
    const exported = await exportPersonalData(db, ' jo@example.COM ', Date.parse('2026-11-23T12:00:00Z'));
    expect(exported.exportedAt).toBe('2026-11-23T12:00:00.000Z');
    expect(
      exported.enquiries.map((entry) => [entry.subject, entry.email, entry.phone, (entry.notification as { status: string }).status]),
    ).toEqual([
      ['Roof leak', 'Jo@Example.com', '0141 496 0001', 'sent'],
      ['Follow-up on the roof', 'Jo@Example.com', '0141 496 0001', 'pending'],
    ]);
    expect(exported.enquiries[0]).toHaveProperty('clientAddress');
    expect(exported.enquiries[0]).toHaveProperty('message', 'Water is coming in.');
  });

  it('exports and erases the urgency answers, an instruction’s details and the support needs with the enquiry', async () => {
    const instruction = {
      name: 'Claims Desk',
      email: 'desk@insurer.example',
      phone: '',
      subject: 'Instruction CLM-77',
      message: 'Escape of water, kitchen ceiling.',
      claimRole: 'insurer',
      claimReference: 'CLM-77',
      policyholderName: 'Ann Policy',
      policyholderPhone: '07700 900123',
      propertyAddress: '1 High Street\nKilsyth',
      postcode: 'G65 0AA',
      vatRegistered: 'no',
      excess: '250',
      desktopAssessment: 'yes',
      worsening: 'yes',
      habitable: 'not-sure',
      vulnerable: 'yes',
      noPhoneCalls: 'yes',
      supportNeeds: 'The policyholder is deaf: e-mail or text only.',
    };
    await submitEnquiry(db, instruction);
    const [exported] = (await exportPersonalData(db, 'desk@insurer.example')).enquiries;
    expect(exported).toMatchObject({
      worsening: 'yes',
      habitable: 'not-sure',
      vulnerable: 'yes',
      policyholderName: 'Ann Policy',
      policyholderPhone: '07700 900123',
      propertyAddress: '1 High Street\nKilsyth',
      postcode: 'G65 0AA',
      vatRegistered: 'no',
      excess: '£250',
      desktopAssessment: 'yes',
      noPhoneCalls: 'yes',
      supportNeeds: 'The policyholder is deaf: e-mail or text only.',
    });
    await erasePersonalData(db, 'desk@insurer.example', { photosRoot: path.join(url.slice('file:'.length), '..', 'photos') });
    // Nothing of it is left in any column.
    const left = await db.execute(
      'SELECT count(*) AS n FROM enquiries WHERE policyholder_name IS NOT NULL OR policyholder_phone IS NOT NULL OR property_address IS NOT NULL OR vulnerable IS NOT NULL OR worsening IS NOT NULL OR excess IS NOT NULL OR no_phone_calls IS NOT NULL OR support_needs IS NOT NULL',
    );
    expect(Number(left.rows[0]!.n)).toBe(0);
    expect((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]!.n).toBe(3);
  });

  it("erases them with their notifications, pending ones included, and nobody else's", async () => {
    // Two enquiries, each with its notification, and the one acknowledgement the address gets in a day.
    expect(await erasePersonalData(db, 'JO@example.com', { photosRoot: path.join(url.slice('file:'.length), '..', 'photos') })).toEqual({
      enquiries: 2,
      emails: 3,
      photos: 0,
      portfolioLinks: 0,
    });
    expect((await db.execute('SELECT email FROM enquiries')).rows.map((row) => row.email)).toEqual(['sam@example.org']);
    expect(Number((await db.execute('SELECT count(*) AS n FROM enquiry_notifications')).rows[0]!.n)).toBe(2);
    expect((await exportPersonalData(db, 'jo@example.com')).enquiries).toEqual([]);
  });

  it('npm run enquiries -- --export EMAIL prints the JSON; --erase EMAIL deletes; a non-address is refused', async () => {
    const exported = await runToEnd(spawnTs('scripts/enquiries.ts', ['--export', 'jo@example.com'], { DATABASE_URL: url }));
    expect(exported.code, exported.stderr).toBe(0);
    const json = JSON.parse(exported.lines.join('\n')) as { email: string; enquiries: { subject: string }[] };
    expect(json.email).toBe('jo@example.com');
    expect(json.enquiries.map((entry) => entry.subject)).toEqual(['Roof leak', 'Follow-up on the roof']);

    const erased = await runToEnd(spawnTs('scripts/enquiries.ts', ['--erase', 'jo@example.com'], { DATABASE_URL: url }));
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.lines).toEqual(['Erased 2 enquiries and their 3 e-mails (notifications, acknowledgements) for jo@example.com.']);
    expect((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]!.n).toBe(1);

    const refused = await runToEnd(spawnTs('scripts/enquiries.ts', ['--erase', 'everyone'], { DATABASE_URL: url }));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"everyone" is not an e-mail address.');
    expect((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]!.n).toBe(1);
  }, 30_000);

  it('npm run enquiries shows each reference and the claim details; --json includes them all', async () => {
    const claim = {
      damageType: 'storm-weather',
      damageDate: '2026-11-01',
      postcode: 'fk1 1aa',
      insurer: 'Example Mutual',
      claimReference: 'CL-77',
    };
    await submitEnquiry(db, { ...sam, email: 'claims@example.org', subject: 'Slates off', ...claim });

    const listed = await runToEnd(spawnTs('scripts/enquiries.ts', [], { DATABASE_URL: url }));
    expect(listed.code, listed.stderr).toBe(0);
    const text = listed.lines.join('\n');
    for (const id of [1, 2, 3, 4]) expect(text).toContain(enquiryReference(id));
    expect(text).toContain('    claim: Storm or weather damage, damaged 2026-11-01, FK1 1AA, insurer Example Mutual, claim CL-77');

    const json = await runToEnd(spawnTs('scripts/enquiries.ts', ['--json'], { DATABASE_URL: url }));
    const entries = JSON.parse(json.lines.join('\n')) as Record<string, unknown>[];
    expect(entries.at(-1)).toMatchObject({
      reference: enquiryReference(4),
      damageType: 'storm-weather',
      damageDate: '2026-11-01',
      postcode: 'FK1 1AA',
      insurer: 'Example Mutual',
      claimReference: 'CL-77',
      claimRole: null,
      acknowledgement: 'pending',
    });
  }, 30_000);
});
