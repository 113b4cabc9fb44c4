import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { readEnquiryStats } from '@/server/reports/stats';
import { findEnquiry } from '@/server/ledger/enquiry-store';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const base = { name: 'Jo Bloggs', phone: '', message: 'Water is coming in through the ceiling.' };
const fromGoogle = { landingPage: '/services/water-damage', referrer: 'https://www.google.com', sentFrom: '/contact' };
const october = Date.parse('2026-10-14T10:00:00Z');
const november = Date.parse('2026-11-20T10:00:00Z');

let db: Client;
let url: string;
let cleanup: () => void;

async function send(at: number, body: Record<string, string>) {
  await submitEnquiry(db, { ...base, ...body }, { at });
}

beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
  await send(october, { email: 'a@example.com', subject: 'Burst pipe', ...fromGoogle, damageType: 'water-damage', postcode: 'G1 1AA' });
  // Urgent: the leak is still getting worse.
  await send(november, { email: 'b@example.com', subject: 'Leak upstairs', ...fromGoogle, damageType: 'water-damage', worsening: 'yes' });
  await send(november, {
    email: 'c@example.com',
    subject: 'Slates off',
    landingPage: '/services/storm-weather',
    referrer: 'https://www.bing.com',
    utmSource: 'gbp',
    utmMedium: 'organic',
    sentFrom: '/contact',
    damageType: 'storm-weather',
  });
  await send(november, { email: 'd@example.com', subject: 'Kitchen refit quote', landingPage: '/', sentFrom: '/contact' });
  // Sent by an older page (or a client that sends nothing of the sort): counted, its landing not recorded.
  await send(november, { email: 'e@example.com', subject: 'Gutter repair' });
  // A spam trap's: stored, left out of the counts.
  await send(november, {
    email: 'f@example.com',
    subject: 'Cheap pills',
    website: 'https://spam.example',
    landingPage: '/',
    habitable: 'no',
  });
});
afterEach(() => cleanup());

describe('where enquiries come from', () => {
  it('stores the page each was sent from, its landing page, the referring origin and the campaign tags', async () => {
    expect(await findEnquiry(db, 3)).toMatchObject({
      sentFrom: '/contact',
      landingPage: '/services/storm-weather',
      referrer: 'https://www.bing.com',
      utmSource: 'gbp',
      utmMedium: 'organic',
      utmCampaign: null,
    });
    expect(await findEnquiry(db, 5)).toMatchObject({ sentFrom: null, landingPage: null, referrer: null });
  });

  it('keeps nothing of a hostile value but what the form itself could have sent', async () => {
    await send(november, {
      email: 'g@example.com',
      subject: 'Another enquiry',
      landingPage: 'https://evil.example/phish',
      referrer: 'javascript:alert(1)',
      utmCampaign: `\u001b[2J${'x'.repeat(5000)}`,
      sentFrom: '//evil.example',
    });
    expect(await findEnquiry(db, 7)).toMatchObject({
      sentFrom: null,
      landingPage: null,
      referrer: null,
      utmCampaign: `[2J${'x'.repeat(97)}`,
    });
  });

  it('counts the accepted ones by month, by landing page and source, by type of damage, and claims against the rest', async () => {
    expect(await readEnquiryStats(db)).toEqual({
      counted: 5,
      leftOut: 1,
      byMonth: [
        { key: '2026-10', count: 1 },
        { key: '2026-11', count: 4 },
      ],
      byLandingAndSource: [
        { landingPage: '/services/water-damage', source: 'www.google.com', count: 2 },
        { landingPage: '(not recorded)', source: 'direct or unknown', count: 1 },
        { landingPage: '/', source: 'direct or unknown', count: 1 },
        { landingPage: '/services/storm-weather', source: 'gbp / organic', count: 1 },
      ],
      byDamageType: [
        { key: 'not given', count: 2 },
        { key: 'Water damage', count: 2 },
        { key: 'Storm or weather damage', count: 1 },
      ],
      claims: { claims: 3, other: 2 },
      // The spam trap's "urgent" answers are left out with it.
      urgent: 1,
      instructions: 0,
    });
  });

  it('counts urgent enquiries apart: any yes to worse or at risk, or no to staying tonight; not sure is not urgent', async () => {
    await send(november, { email: 'h@example.com', subject: 'Smoke damage', vulnerable: 'yes' });
    await send(november, { email: 'i@example.com', subject: 'Fire damage', habitable: 'no', worsening: 'no' });
    await send(november, {
      email: 'j@example.com',
      subject: 'Not sure yet',
      worsening: 'not-sure',
      habitable: 'not-sure',
      vulnerable: 'not-sure',
    });
    await send(november, { email: 'k@example.com', subject: 'All fine now', worsening: 'no', habitable: 'yes', vulnerable: 'no' });
    const stats = await readEnquiryStats(db);
    expect(stats).toMatchObject({ counted: 9, urgent: 3 });
    expect(await findEnquiry(db, 9)).toMatchObject({ worsening: 'not-sure', habitable: 'not-sure', vulnerable: 'not-sure' });
  });

  it('counts instructions apart, and npm run enquiries shows the urgency and the instruction under each', async () => {
    await send(november, {
      email: 'desk@insurer.example',
      subject: 'Instruction CLM-9',
      claimRole: 'insurer',
      claimReference: 'CLM-9',
      policyholderName: 'Ann Policy',
      policyholderPhone: '07700 900123',
      propertyAddress: '1 High Street\nKilsyth',
      postcode: 'G65 0AA',
      vatRegistered: 'yes',
      excess: '100',
      desktopAssessment: 'no',
      habitable: 'no',
      vulnerable: 'not-sure',
    });
    expect(await readEnquiryStats(db)).toMatchObject({ counted: 6, urgent: 2, instructions: 1 });
    const report = await runToEnd(spawnTs('scripts/enquiries.ts', ['--stats'], { DATABASE_URL: url }));
    expect(report.lines.join('\n')).toMatch(/^ {2}insurers and loss adjusters +1 +17%$/m);
    const listing = await runToEnd(spawnTs('scripts/enquiries.ts', [], { DATABASE_URL: url }));
    expect(listing.code, listing.stderr).toBe(0);
    const text = listing.lines.join('\n');
    expect(text).toContain('    urgency: URGENT (tonight no, at risk not sure)');
    expect(text).toContain(
      '    instruction: policyholder Ann Policy; 07700 900123; 1 High Street, Kilsyth; VAT Yes; excess £100; desktop No',
    );
    expect(text).toContain('    urgency: URGENT (worse yes)');
  }, 30_000);

  it('counts from a day on with --since', async () => {
    const stats = await readEnquiryStats(db, '2026-11-01');
    expect(stats.counted).toBe(4);
    expect(stats.byMonth).toEqual([{ key: '2026-11', count: 4 }]);
  });

  it('npm run enquiries -- --stats prints the six tables; --since takes a date; a bad date is refused', async () => {
    const printed = await runToEnd(spawnTs('scripts/enquiries.ts', ['--stats'], { DATABASE_URL: url }));
    expect(printed.code, printed.stderr).toBe(0);
    const text = printed.lines.join('\n');
    expect(printed.lines[0]).toBe('5 accepted enquiries; 1 spam or suspect left out.');
    for (const heading of ['By month', 'By landing page and source', 'By type of damage', 'Claims and the rest', 'Urgency', 'Instructions'])
      expect(text).toContain(heading);
    expect(text).toMatch(/^ {2}urgent +1 +20%$/m);
    expect(text).toMatch(/^ {2}\/services\/water-damage +www\.google\.com +2 +40%$/m);
    expect(text).toMatch(/^ {2}insurance claims +3 +60%$/m);

    const since = await runToEnd(spawnTs('scripts/enquiries.ts', ['--stats', '--since', '2026-11-01', '--json'], { DATABASE_URL: url }));
    expect(since.code, since.stderr).toBe(0);
    expect(JSON.parse(since.lines.join('\n'))).toMatchObject({ counted: 4, claims: { claims: 2, other: 2 }, urgent: 1 });

    const bad = await runToEnd(spawnTs('scripts/enquiries.ts', ['--stats', '--since', 'last week'], { DATABASE_URL: url }));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since goes with --stats and takes a date written YYYY-MM-DD, not "last week".');
  }, 30_000);
});
