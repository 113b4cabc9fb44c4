import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import type { ClaimStage } from '@/lib/claim-stages';
import { recordStageChange } from '@/server/claims/claim-status';
import { orm } from '@/server/base/db';
import { enquiryPhotos, errorLogs, webhookEvents } from '@/server/base/db-schema';
import { composeDigest, type DigestFacts } from '@/server/reports/digest/sections';
import { gatherDigestFacts, type DigestWindow } from '@/server/reports/digest/facts';
import { periodContaining, previousPeriod } from '@/server/reports/digest/period';
import { photoStorageState } from '@/server/ledger/photo-storage';
import { submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { business } from '@/content/business';
import { bookSurvey, cancelSurvey, moveSurvey } from '@/server/claims/survey-booking';
import { newFormToken } from '@/server/claims/claim-pages';

const at = (iso: string) => Date.parse(iso);
// The week of Monday 16 November 2026 08:00 to Monday 23 November 08:00 (GMT), and its digest's moment.
const week = periodContaining(at('2026-11-18T12:00:00Z'), 'weekly');
const sendTime = at('2026-11-23T08:00:30Z');
const windowOf = (period = week, toMs = period.endMs): DigestWindow => {
  const before = previousPeriod(period);
  return {
    mode: 'weekly',
    covers: { fromMs: period.startMs, toMs },
    partial: toMs < period.endMs,
    previous: { fromMs: before.startMs, toMs: before.endMs },
  };
};

let db: Client;
let dir: string;
let cleanup: () => void;
const ids: Record<string, { id: number; reference: string }> = {};

beforeEach(async () => {
  ({ db, dir, cleanup } = await tempDatabase());
  // The week before: two enquiries.
  await submitEnquiryAt(db, at('2026-11-10T10:00:00Z'));
  await submitEnquiryAt(db, at('2026-11-12T10:00:00Z'));
  // The week: four counted, one spam, one suspect.
  const google = { landingPage: '/services/water-damage', referrer: 'https://www.google.com', sentFrom: '/contact' };
  ids.failed = await submitEnquiryAt(db, at('2026-11-17T10:00:00Z'), { ...google, damageType: 'water-damage', postcode: 'G1 1AA' });
  ids.waiting = await submitEnquiryAt(db, at('2026-11-18T10:00:00Z'), { ...google, damageType: 'water-damage' });
  ids.storm = await submitEnquiryAt(db, at('2026-11-19T10:00:00Z'), {
    landingPage: '/services/storm-weather',
    utmSource: '<b>gbp</b>',
    utmMedium: 'organic',
    damageType: 'storm-weather',
  });
  ids.unverified = await submitEnquiryAt(db, at('2026-11-20T10:00:00Z'), { landingPage: '/', subject: 'Kitchen refit quote' });
  await submitEnquiryAt(db, at('2026-11-20T11:00:00Z'), { website: 'https://spam.example', subject: 'Cheap pills' });
  ids.suspect = await submitEnquiryAt(db, at('2026-11-21T10:00:00Z'));
  // The week after: not counted.
  ids.later = await submitEnquiryAt(db, at('2026-11-24T10:00:00Z'));

  await db.execute(`UPDATE enquiry_notifications SET status = 'sent', sent_at = '2026-11-20T10:00:01.000Z'`);
  await db.execute({
    sql: `UPDATE enquiry_notifications SET status = 'failed', attempts = 20 WHERE enquiry_id = ? AND kind = 'notification'`,
    args: [ids.failed.id],
  });
  await db.execute({
    sql: `UPDATE enquiry_notifications SET status = 'pending', attempts = 3 WHERE enquiry_id = ? AND kind = 'notification'`,
    args: [ids.waiting.id],
  });
  // A visitor's acknowledgement that failed is not the company's business.
  await db.execute({
    sql: `UPDATE enquiry_notifications SET status = 'failed' WHERE enquiry_id = ? AND kind = 'acknowledgement'`,
    args: [ids.storm.id],
  });
  await db.execute({
    sql: `UPDATE enquiries SET photos_dropped = 3, photos_dropped_reason = 'storage-full' WHERE id = ?`,
    args: [ids.storm.id],
  });
  await db.execute({ sql: `UPDATE enquiries SET verification = 'unverified' WHERE id = ?`, args: [ids.unverified.id] });
  await db.execute({
    sql: `UPDATE enquiries SET disposition = 'suspect', verification = 'low-score' WHERE id = ?`,
    args: [ids.suspect.id],
  });
  await orm(db).insert(enquiryPhotos).values({
    enquiryId: ids.unverified.id,
    position: 1,
    originalName: 'a.jpg',
    fileName: '1.jpg',
    bytes: 2_500_000,
    width: 10,
    height: 10,
  });

  const entry = { application: 'homecare-web', level: 'error' as const, source: 'frontend', message: 'boom' };
  await orm(db)
    .insert(errorLogs)
    .values([
      { ...entry, category: 'client', receivedAt: '2026-11-16T09:00:00.000Z' },
      { ...entry, category: 'client', receivedAt: '2026-11-19T09:00:00.000Z' },
      { ...entry, category: 'client', receivedAt: '2026-11-23T07:59:59.000Z' },
      { ...entry, category: 'server', receivedAt: '2026-11-20T09:00:00.000Z', reportedBy: 'server' },
      // Outside the week.
      { ...entry, category: 'database', receivedAt: '2026-11-23T08:00:00.000Z' },
      { ...entry, category: 'network', receivedAt: '2026-11-16T07:59:59.000Z' },
    ]);
});
afterEach(() => cleanup());

const photoStorage = (client: Client) => photoStorageState(client, dir, { maxBytes: 10_000_000, minFreeBytes: 0 });

describe('the digest of a seeded week', () => {
  it('gathers what needs action, the counts against the week before, photo storage and the error log', async () => {
    const facts = await gatherDigestFacts(db, windowOf(), { now: sendTime, health: { photoStorage } });
    expect(facts).toMatchObject({
      mode: 'weekly',
      timeZone: 'Europe/London',
      covers: { fromMs: at('2026-11-16T08:00:00Z'), toMs: at('2026-11-23T08:00:00Z') },
      partial: false,
      previous: { count: 2 },
      undelivered: [
        { reference: ids.failed!.reference, status: 'failed', attempts: 20 },
        { reference: ids.waiting!.reference, status: 'pending', attempts: 3 },
      ],
      photosRefused: [{ reference: ids.storm!.reference, photos: 3 }],
      healthProblems: ['notifications-failed', 'notifications-delayed'],
      enquiries: {
        counted: 4,
        leftOut: 2,
        unverified: 1,
        spam: 1,
        suspect: 1,
        claims: { claims: 3, other: 1 },
        byDamageType: [
          { key: 'Water damage', count: 2 },
          { key: 'not given', count: 1 },
          { key: 'Storm or weather damage', count: 1 },
        ],
        byLandingAndSource: [
          { landingPage: '/services/water-damage', source: 'www.google.com', count: 2 },
          { landingPage: '/', source: 'direct or unknown', count: 1 },
          { landingPage: '/services/storm-weather', source: '<b>gbp</b> / organic', count: 1 },
        ],
      },
      lastEnquiryMs: at('2026-11-20T10:00:00Z'),
      photoStorage: { state: 'ok', usedBytes: 2_500_000, maxBytes: 10_000_000 },
      errorLog: [
        { category: 'client', count: 3 },
        { category: 'server', count: 1 },
      ],
    });
  });

  it('reads first what needs action, then the enquiries, photo storage and the error log, naming enquiries by reference only', async () => {
    const { subject, text, html } = composeDigest(await gatherDigestFacts(db, windowOf(), { now: sendTime, health: { photoStorage } }));
    expect(subject).toBe('Action needed: Website weekly digest 16 Nov to 23 Nov: 4 enquiries');
    const headings = ['NEEDS ACTION', 'ENQUIRIES', 'PHOTO STORAGE', 'ERROR LOG'].map((heading) => text.indexOf(`\n${heading}\n`));
    expect(headings.every((index) => index > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    const lines = text.split('\n');
    expect(lines).toContain('Website weekly digest: Mon 16 Nov 08:00 to Mon 23 Nov 08:00');
    expect(lines).toContain(`- ${ids.failed!.reference}: failed after 20 attempts (received Tue 17 Nov 10:00)`);
    expect(lines).toContain(`- ${ids.waiting!.reference}: still waiting after 3 attempts (received Wed 18 Nov 10:00)`);
    expect(lines).toContain(`- ${ids.storm!.reference}: 3 photos (received Thu 19 Nov 10:00)`);
    expect(lines).toContain('- notifications-failed: a notification failed for good');
    expect(lines).toContain('4 enquiries this week (the week before: 2).');
    expect(lines).toContain('Insurance claims: 3, other enquiries: 1.');
    expect(lines).toContain('- 1 of them unverified (reCAPTCHA could not be asked)');
    expect(lines).toContain('- spam 1, suspect 1 (stored, not notified, not counted above)');
    expect(text).toMatch(/^ {2}Water damage +2$/m);
    expect(text).toMatch(/^ {2}\/services\/water-damage, www\.google\.com +2$/m);
    expect(text).toMatch(/^2\.5 MB used of 10 MB \(25%\); [\d.,]+ [KMG]B free on the disk, which keeps 0 KB free\.$/m);
    expect(text).toMatch(/^ {2}client +3$/m);
    expect(text).toMatch(/^ {2}server +1$/m);
    expect(text).not.toMatch(/database|network/);
    // Nothing a visitor typed beyond the attribution, no addresses, no names.
    for (const typed of ['Water is coming in', 'Kitchen refit', 'Cheap pills', 'example.com', 'Jo Bloggs', 'G1 1AA'])
      for (const part of [subject, text, html]) expect(part).not.toContain(typed);
    // The HTML alternative says the same, escaped, with no images, links or remote resources.
    expect(html).toContain('<h2 style="font-size:1.1em;margin-top:1.2em">Needs action</h2>');
    expect(html).toContain('&lt;b&gt;gbp&lt;/b&gt; / organic');
    expect(html).not.toContain('<b>gbp');
    expect(html).not.toMatch(/<img|<a\s|src=|url\(|https?:/i);
  });

  it('says a week without enquiries had none, and when the last one arrived', async () => {
    const quiet = periodContaining(at('2026-12-02T12:00:00Z'), 'weekly');
    await db.execute(`UPDATE enquiry_notifications SET status = 'sent'`);
    const facts = await gatherDigestFacts(db, windowOf(quiet), { now: quiet.endMs + 1000 });
    const { subject, text } = composeDigest(facts);
    expect(subject).toBe('Website weekly digest 30 Nov to 7 Dec: no enquiries');
    expect(text).toContain('NEEDS ACTION\nNothing needs action.\n');
    expect(text).toContain('No enquiries this week (the week before: 1). The last one arrived Tue 24 Nov 10:00.');
    expect(text).toContain('ERROR LOG\nNo entries this week.');
  });

  it('on a new site says no enquiry has arrived yet; an early digest says "so far"', async () => {
    const empty = await tempDatabase();
    try {
      const facts = await gatherDigestFacts(empty.db, windowOf(week, at('2026-11-18T09:30:00Z')), { now: at('2026-11-18T09:30:00Z') });
      const { subject, text } = composeDigest(facts);
      expect(subject).toBe('Website weekly digest 16 Nov to Wed 18 Nov 09:30 (so far): no enquiries');
      expect(text).toContain('No enquiries this week so far (the week before: 0). No enquiry has arrived yet.');
    } finally {
      empty.cleanup();
    }
  });

  it('composes the same digest from the same facts (a pure function)', () => {
    const facts: DigestFacts = {
      mode: 'daily',
      timeZone: 'Europe/London',
      covers: { fromMs: at('2026-07-01T07:00:00Z'), toMs: at('2026-07-02T07:00:00Z') },
      partial: false,
      previous: { fromMs: at('2026-06-30T07:00:00Z'), toMs: at('2026-07-01T07:00:00Z'), count: 1 },
      undelivered: [],
      photosRefused: [],
      healthProblems: [],
      enquiries: {
        counted: 1,
        leftOut: 0,
        byMonth: [],
        byLandingAndSource: [],
        byDamageType: [],
        claims: { claims: 0, other: 1 },
        urgent: 0,
        instructions: 0,
        unverified: 0,
        spam: 0,
        suspect: 0,
      },
      lastEnquiryMs: at('2026-07-01T12:00:00Z'),
      photoStorage: null,
      claims: {
        byStage: [
          { stage: 'received', claims: 3, pastNextDate: 0 },
          { stage: 'with-insurer', claims: 1, pastNextDate: 1 },
        ],
        pastNextDate: 1,
      },
      drying: [],
      surveys: { bookedByHomeowners: 0, moved: 0, cancelled: 0, noAccess: 0 },
      errorLog: [],
      crm: null,
      portfolios: [],
    };
    const email = composeDigest(facts);
    expect(composeDigest(structuredClone(facts))).toEqual(email);
    // London summer time: 07:00 UTC is 08:00 local.
    expect(email.subject).toBe('Website daily digest 1 Jul to 2 Jul: 1 enquiry');
    expect(email.text).toContain('Website daily digest: Wed 1 Jul 08:00 to Thu 2 Jul 08:00');
    expect(email.text).toContain('1 enquiry this day (the day before: 1).');
    expect(email.text).toContain(
      'CLAIMS\n4 claims (every accepted enquiry), by the stage each is at now:\n' +
        '  Received           3\n' +
        '  With your insurer  1\n' +
        'Past their next date and not completed: 1. npm run enquiries lists each claim with its stage.\n',
    );
  });

  it('counts every accepted enquiry at its latest stage, and those past their next date in the UK and not completed', async () => {
    const change = (id: number, stage: ClaimStage, nextDate: string | null, iso: string) =>
      recordStageChange(db, id, { stage, waitingOn: null, nextDate, note: null, tellCustomer: false, source: 'staff' }, at(iso));
    await change(ids.failed!.id, 'contacted', '2026-11-20', '2026-11-17T11:00:00Z');
    await change(ids.waiting!.id, 'surveyed', '2026-11-19', '2026-11-18T11:00:00Z');
    await change(ids.waiting!.id, 'completed', '2026-11-01', '2026-11-21T11:00:00Z');
    await change(ids.storm!.id, 'contacted', '2026-11-20', '2026-11-19T11:00:00Z');
    // Due today is not past.
    await change(ids.storm!.id, 'survey-booked', '2026-11-23', '2026-11-20T11:00:00Z');
    // Two changes at the same moment: the later one (by id) is where it stands.
    await change(ids.unverified!.id, 'drying', '2026-11-02', '2026-11-20T12:00:00Z');
    await change(ids.unverified!.id, 'works-booked', null, '2026-11-20T12:00:00Z');
    // A suspect enquiry is not a claim.
    await change(ids.suspect!.id, 'contacted', '2026-11-01', '2026-11-21T12:00:00Z');

    const facts = await gatherDigestFacts(db, windowOf(), { now: sendTime, health: { photoStorage } });
    expect(facts.claims).toEqual({
      byStage: [
        // The week before's two and the week after's one have no change yet.
        { stage: 'received', claims: 3, pastNextDate: 0 },
        { stage: 'contacted', claims: 1, pastNextDate: 1 },
        { stage: 'survey-booked', claims: 1, pastNextDate: 0 },
        { stage: 'works-booked', claims: 1, pastNextDate: 0 },
        { stage: 'completed', claims: 1, pastNextDate: 0 },
      ],
      pastNextDate: 1,
    });
    const { text, html } = composeDigest(facts);
    const headings = ['ENQUIRIES', 'CLAIMS', 'PHOTO STORAGE'].map((heading) => text.indexOf(`\n${heading}\n`));
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(text).toContain('7 claims (every accepted enquiry), by the stage each is at now:');
    expect(text).toMatch(/^ {2}Survey booked +1$/m);
    expect(text).toContain('Past their next date and not completed: 1. npm run enquiries lists each claim with its stage.');
    expect(html).toContain('<h2 style="font-size:1.1em;margin-top:1.2em">Claims</h2>');
  });

  it('has a CRM section when the webhooks are on: delivered in the week, waiting and failed for good now', async () => {
    const event = (n: number, enquiryId: number) => ({
      enquiryId,
      type: 'claim.updated' as const,
      eventId: `msg_${String(n).padStart(32, '0')}`,
      photosFrom: n,
      occurredAt: '2026-11-17T10:00:00.000Z',
      createdMs: at('2026-11-17T10:00:00Z'),
      nextAttemptMs: at('2026-11-17T10:00:00Z'),
    });
    await orm(db)
      .insert(webhookEvents)
      .values([
        { ...event(1, ids.failed!.id), status: 'delivered', deliveredAt: '2026-11-17T10:00:01.000Z' },
        { ...event(2, ids.waiting!.id), status: 'delivered', deliveredAt: '2026-11-23T07:59:59.999Z' },
        // Delivered outside the week: not counted.
        { ...event(3, ids.waiting!.id), status: 'delivered', deliveredAt: '2026-11-23T08:00:00.000Z' },
        { ...event(4, ids.storm!.id), type: 'enquiry.received', status: 'failed', attempts: 14, lastError: 'HTTP 410' },
        { ...event(5, ids.unverified!.id), status: 'pending', attempts: 2, createdMs: at('2026-11-23T07:30:00Z') },
      ]);
    const off = await gatherDigestFacts(db, windowOf(), { now: sendTime, health: { photoStorage } });
    expect(off.crm).toBeNull();
    expect(composeDigest(off).text).not.toContain('\nCRM\n');

    const facts = await gatherDigestFacts(db, windowOf(), { now: sendTime, health: { photoStorage, webhooks: true } });
    expect(facts.crm).toEqual({
      delivered: 2,
      waiting: 1,
      failed: [{ reference: ids.storm!.reference, type: 'enquiry.received', attempts: 14 }],
      oldestWaitingMs: at('2026-11-23T07:30:00Z'),
    });
    expect(facts.healthProblems).toContain('webhooks-failed');
    const { text, html } = composeDigest(facts);
    expect(text).toContain(
      'CRM\n2 events delivered to the CRM this week. Waiting: 1 (the oldest since Mon 23 Nov 07:30). Failed for good: 1.\n' +
        `- ${ids.storm!.reference}: enquiry.received, after 14 attempts\n` +
        "npm run webhooks -- --list shows why; npm run webhooks -- --resend REFERENCE sends an enquiry's events again.\n",
    );
    expect(text).toContain("- webhooks-failed: an event to the company's CRM failed for good");
    const headings = ['CLAIMS', 'CRM', 'PHOTO STORAGE'].map((heading) => text.indexOf(`\n${heading}\n`));
    expect(headings.every((index) => index > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(html).toContain('<h2 style="font-size:1.1em;margin-top:1.2em">CRM</h2>');
    expect(text).not.toContain('HTTP 410');
  });

  it('counts the survey visits homeowners booked in the week, and those moved and cancelled', async () => {
    const hours = business.openingHours;
    // Wednesday 18 November, 12:00: Thursday 19 November's windows are the first offered.
    const booking = (enquiryId: number, now: number) =>
      bookSurvey(db, {
        enquiryId,
        stage: 'received',
        slot: { date: '2026-11-24', window: 'am' },
        formToken: newFormToken(),
        now,
        hours,
        tellCrm: false,
      });
    const wednesday = at('2026-11-18T12:00:00Z');
    expect((await booking(ids.failed!.id, wednesday)).kind).toBe('booked');
    expect((await booking(ids.waiting!.id, wednesday)).kind).toBe('booked');
    const slot = { date: '2026-11-25', window: 'pm' } as const;
    expect((await moveSurvey(db, { enquiryId: ids.failed!.id, slot, now: wednesday + 60_000, hours, tellCrm: false })).kind).toBe('moved');
    expect((await cancelSurvey(db, { enquiryId: ids.waiting!.id, now: wednesday + 120_000, hours, tellCrm: false })).kind).toBe(
      'cancelled',
    );
    // Booked the week after: not this digest's.
    expect((await booking(ids.storm!.id, at('2026-11-23T09:00:00Z'))).kind).toBe('booked');
    const facts = await gatherDigestFacts(db, windowOf(), { now: sendTime });
    expect(facts.surveys).toEqual({ bookedByHomeowners: 2, moved: 1, cancelled: 1, noAccess: 0 });
    expect(composeDigest(facts).text).toMatch(
      /SURVEY VISITS\nThis week:\n {2}Booked by homeowners on the site +2\n {2}Moved +1\n {2}Cancelled +1\n {2}No access \(nobody in\) +0\n/,
    );
  });

  it('a site with no claims says so', async () => {
    const empty = await tempDatabase();
    try {
      const facts = await gatherDigestFacts(empty.db, windowOf(), { now: sendTime });
      expect(facts.claims).toEqual({ byStage: [], pastNextDate: 0 });
      expect(composeDigest(facts).text).toContain('CLAIMS\nNo claims yet.\n');
    } finally {
      empty.cleanup();
    }
  });
});
