import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { enquiryReference } from '@/lib/enquiry-reference';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { sendNativeForm } from '@/server/intake/native-form';
import { createEnquiryReceiver } from '@/server/intake/receive-enquiry';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { SENT_WITHOUT_SCRIPT } from '@/server/ledger/sent-without-script';
import { notificationEmail } from '@/server/delivery/notification-email';
import { findEnquiry, replacedEnquiry } from '@/server/ledger/enquiry-store';
import { createRateLimiter } from '@/server/base/rate-limiter';
import { tempDatabase } from '@/tests/support/enquiry-peers';

// The contact form as a browser posts it before its JavaScript runs (React's own $ACTION fields
// included), through the one enquiry receiver.

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const headers = (address = '10.9.0.1') => new Headers({ 'x-homecare-client-address': address });

function posted(fields: Record<string, string>, files: File[] = []): FormData {
  const form = new FormData();
  form.append('$ACTION_REF_1', '');
  form.append('$ACTION_1:0', '{"id":"abc","bound":"$@1"}');
  form.append('$ACTION_KEY', 'k123');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  // A file input with nothing chosen still posts an empty part.
  form.append('photos', files[0] ?? new File([], '', { type: 'application/octet-stream' }));
  for (const file of files.slice(1)) form.append('photos', file);
  form.append('website', '');
  return form;
}

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

function handler(env: Record<string, string> = {}, limit?: number) {
  const config = loadEnquiryConfig(env);
  return createEnquiryReceiver({
    config,
    db: async () => db,
    wake: () => undefined,
    ...(limit ? { limiter: createRateLimiter({ limit, windowMs: 60_000 }) } : {}),
  });
}

describe('the contact form posted without JavaScript', () => {
  it('stores the enquiry unverified, with its notification and no acknowledgement, and gives its reference', async () => {
    const result = await sendNativeForm(posted(valid), headers(), handler({ RECAPTCHA_PROJECT_ID: 'p', RECAPTCHA_API_KEY: 'k' }));
    expect(result).toEqual({ kind: 'sent', reference: enquiryReference(1), urgent: false });
    const row = (await db.execute('SELECT verification, verification_detail, disposition, client_address FROM enquiries')).rows[0]!;
    expect(row).toMatchObject({
      verification: 'unverified',
      verification_detail: SENT_WITHOUT_SCRIPT,
      disposition: 'accepted',
      client_address: '10.9.0.1',
    });
    expect((await db.execute('SELECT kind FROM enquiry_notifications')).rows.map((r) => r.kind)).toEqual(['notification']);
  });

  it('is unverified even where bot protection is not configured, and never acknowledged', async () => {
    await sendNativeForm(posted(valid), headers(), handler());
    expect((await db.execute('SELECT verification FROM enquiries')).rows[0]?.verification).toBe('unverified');
    expect((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'acknowledgement'")).rows[0]?.n).toBe(0);
  });

  it('the honeypot still makes it spam', async () => {
    const form = posted(valid);
    form.set('website', 'http://spam.example');
    expect((await sendNativeForm(form, headers(), handler())).kind).toBe('sent');
    expect((await db.execute('SELECT disposition FROM enquiries')).rows[0]?.disposition).toBe('spam');
    expect((await db.execute('SELECT count(*) AS n FROM enquiry_notifications')).rows[0]?.n).toBe(0);
  });

  it('a validation failure comes back with each message, every typed value, and nothing stored', async () => {
    const result = await sendNativeForm(posted({ ...valid, email: 'jo@example', subject: 'Leak' }), headers(), handler());
    expect(result).toEqual({
      kind: 'refused',
      message: 'Please correct the highlighted fields.',
      errors: { email: 'Please enter a valid email address', subject: 'Subject must be at least 5 characters long' },
      values: { ...valid, email: 'jo@example', subject: 'Leak' },
      claimOpen: false,
      // None was posted (the prerendered page has none): a new one, rendered into the form.
      enquiryKey: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]?.n).toBe(0);
  });

  it("a refusal keeps the enquiry's key it was posted with, so a second press of the form it renders is the same enquiry", async () => {
    const enquiryKey = newEnquiryKey();
    const refused = await sendNativeForm(posted({ ...valid, email: 'jo@example', enquiryKey }), headers(), handler());
    expect(refused).toMatchObject({ kind: 'refused', enquiryKey });
    const first = await sendNativeForm(posted({ ...valid, enquiryKey }), headers(), handler());
    const second = await sendNativeForm(posted({ ...valid, enquiryKey }), headers('198.51.100.44'), handler());
    expect(second).toEqual(first);
    expect((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]?.n).toBe(1);
  });

  it('sent, then Back, the words edited and sent again with the same key: a new enquiry whose notification names the first', async () => {
    const enquiryKey = newEnquiryKey();
    const first = await sendNativeForm(posted({ ...valid, enquiryKey }), headers(), handler());
    const editedFields = { ...valid, message: 'Water is coming in through the bedroom ceiling too.', enquiryKey };
    const edited = await sendNativeForm(posted(editedFields), headers(), handler());
    expect(first).toEqual({ kind: 'sent', reference: enquiryReference(1), urgent: false });
    expect(edited).toEqual({ kind: 'sent', reference: enquiryReference(2), urgent: false });
    // Pressed again (the page did not change fast enough): the same second enquiry.
    expect(await sendNativeForm(posted(editedFields), headers('198.51.100.44'), handler())).toEqual(edited);
    expect((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]?.n).toBe(2);

    const stored = (await findEnquiry(db, 2))!;
    const mail = notificationEmail(stored, { from: 'site@example.com', to: 'office@example.com', replaces: await replacedEnquiry(db, 2) });
    expect(mail.text).toContain(
      `Sent again with changes: this replaces ${enquiryReference(1)} sent at ${(await findEnquiry(db, 1))!.receivedAt}.`,
    );
    expect(mail.text).toContain('Water is coming in through the bedroom ceiling too.');
    expect(await replacedEnquiry(db, 1)).toBeNull();
  });

  it('the claim details count only while their box is ticked', async () => {
    const claim = { claimRole: 'homeowner', postcode: 'not a postcode' };
    const closed = await sendNativeForm(posted({ ...valid, ...claim }), headers(), handler());
    expect(closed.kind).toBe('sent');
    expect((await db.execute('SELECT postcode, claim_role FROM enquiries')).rows[0]).toMatchObject({ postcode: null, claim_role: null });

    const open = await sendNativeForm(posted({ ...valid, subject: 'Another one', claim: 'open', ...claim }), headers(), handler());
    expect(open).toMatchObject({
      kind: 'refused',
      errors: { postcode: 'Enter a UK postcode, like G67 1AB' },
      values: { claimRole: 'homeowner', postcode: 'not a postcode' },
      claimOpen: true,
    });
  });

  it('urgent answers count with the claim box ticked: stored urgent, and the sent page is told', async () => {
    const urgent = { claim: 'open', worsening: 'yes', habitable: 'not-sure', vulnerable: 'no' };
    const sent = await sendNativeForm(posted({ ...valid, ...urgent }), headers(), handler());
    expect(sent).toMatchObject({ kind: 'sent', urgent: true });
    expect((await db.execute('SELECT worsening, habitable, vulnerable, urgent FROM enquiries')).rows[0]).toMatchObject({
      worsening: 'yes',
      habitable: 'not-sure',
      vulnerable: 'no',
      urgent: 1,
    });
    // The box unticked: the answers do not count.
    const unticked = await sendNativeForm(posted({ ...valid, subject: 'Not ticked', worsening: 'yes' }), headers(), handler());
    expect(unticked).toMatchObject({ kind: 'sent', urgent: false });
  });

  it('what would help us work with the person is kept with the claim box ticked, and heads the notification', async () => {
    const support = { claim: 'open', noPhoneCalls: 'yes', supportNeeds: 'Hard of hearing.\r\nPlease e-mail my son Ali instead.' };
    const sent = await sendNativeForm(posted({ ...valid, ...support }), headers(), handler());
    expect(sent).toMatchObject({ kind: 'sent' });
    expect((await db.execute('SELECT no_phone_calls, support_needs FROM enquiries')).rows[0]).toMatchObject({
      no_phone_calls: 'yes',
      support_needs: 'Hard of hearing.\nPlease e-mail my son Ali instead.',
    });
    const stored = await findEnquiry(db, 1);
    const text = String(notificationEmail(stored!, { from: 'website@homecare.test', to: 'office@homecare.test' }).text);
    expect(text.split('\n').slice(0, 4)).toEqual([
      'SUPPORT NEEDS',
      'No phone calls, please.',
      'What would help: Hard of hearing.',
      '                 Please e-mail my son Ali instead.',
    ]);

    // The box unticked: not read, not stored.
    const unticked = await sendNativeForm(
      posted({ ...valid, subject: 'Not ticked', noPhoneCalls: 'yes', supportNeeds: 'x' }),
      headers(),
      handler(),
    );
    expect(unticked.kind).toBe('sent');
    expect((await db.execute("SELECT no_phone_calls, support_needs FROM enquiries WHERE subject = 'Not ticked'")).rows[0]).toMatchObject({
      no_phone_calls: null,
      support_needs: null,
    });
  });

  it('a refusal gives the support needs back as typed, the box still ticked', async () => {
    const support = { claim: 'open', noPhoneCalls: 'yes', supportNeeds: 'a'.repeat(501) };
    const refused = await sendNativeForm(posted({ ...valid, ...support }), headers(), handler());
    expect(refused).toMatchObject({
      kind: 'refused',
      errors: { supportNeeds: 'What would help must be at most 500 characters long' },
      values: { noPhoneCalls: 'yes', supportNeeds: 'a'.repeat(501) },
      claimOpen: true,
    });
    expect((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]?.n).toBe(0);
  });

  it('an instruction’s fields count only from an insurer or a loss adjuster; a wrong one comes back with every value', async () => {
    const instruction = {
      policyholderName: 'Ann Policy',
      policyholderPhone: 'call me',
      propertyAddress: '1 High Street\nKilsyth',
      excess: 'lots',
    };
    const homeowner = await sendNativeForm(
      posted({ ...valid, claim: 'open', claimRole: 'homeowner', ...instruction }),
      headers(),
      handler(),
    );
    expect(homeowner.kind).toBe('sent');
    expect((await db.execute('SELECT policyholder_name, excess FROM enquiries')).rows[0]).toMatchObject({
      policyholder_name: null,
      excess: null,
    });

    const adjuster = await sendNativeForm(
      posted({ ...valid, subject: 'Instruction CLM-1', claim: 'open', claimRole: 'loss-adjuster', ...instruction }),
      headers(),
      handler(),
    );
    expect(adjuster).toMatchObject({
      kind: 'refused',
      errors: {
        policyholderPhone: 'Enter the policyholder’s telephone number, like 0141 496 0123',
        postcode: 'Enter the postcode of the property, like G67 1AB',
        excess: 'Enter the excess as an amount in pounds, like 250 or £1,000',
      },
      values: { claimRole: 'loss-adjuster', ...instruction },
      claimOpen: true,
    });
  });

  it('photos it cannot take are named, and the visitor is asked to choose them again when the text was wrong', async () => {
    const pdf = new File([Buffer.from('%PDF-1.7\n')], 'roof.jpg', { type: 'image/jpeg' });
    const refused = await sendNativeForm(posted(valid, [pdf]), headers(), handler());
    expect(refused).toMatchObject({
      kind: 'refused',
      errors: { photos: expect.stringContaining('“roof.jpg” is not a photo we can open') },
    });

    const alsoWrong = await sendNativeForm(posted({ ...valid, name: 'J' }, [pdf]), headers(), handler());
    expect(alsoWrong).toMatchObject({ kind: 'refused', errors: { name: 'Name must be at least 2 characters long' } });
  });

  it('too large: the photos could not be sent, everything typed kept', async () => {
    const tooBig = new File([new Uint8Array(10_000_001)], 'IMG_0001.jpg', { type: 'image/jpeg' });
    const result = await sendNativeForm(posted(valid, [tooBig]), headers(), handler());
    expect(result).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('larger than 10 MB'),
      values: { name: 'Jo Bloggs', subject: 'Roof leak' },
    });
  });

  it('rate-limited like any other: Too many requests. Please try again later.', async () => {
    const handle = handler({}, 1);
    expect((await sendNativeForm(posted(valid), headers('10.9.0.7'), handle)).kind).toBe('sent');
    const second = await sendNativeForm(posted({ ...valid, subject: 'Second one' }), headers('10.9.0.7'), handle);
    expect(second).toMatchObject({
      kind: 'refused',
      message: 'Too many requests. Please try again later.',
      values: { subject: 'Second one' },
    });
  });
});
