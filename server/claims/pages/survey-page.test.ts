// "Book your survey" as the status page's server side runs it, by the claim's own cookie.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { surveyBookingText as words } from '@/content/survey-booking';
import { claimSessionValue } from '@/server/claims/claim-links';
import { createClaimPages } from '@/server/claims/claim-pages';
import { submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';

// Friday 4 December 2026, 15:00 GMT.
const NOW = Date.parse('2026-12-04T15:00:00Z');
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const pages = () => createClaimPages({ db: async () => db, now: () => NOW, tellCrm: false });
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe('the status page’s "Book your survey"', () => {
  it('lists the windows to its own cookie, books one, and shows the booked visit after', async () => {
    const { id, reference } = await submitEnquiryAt(db, NOW - 60_000);
    const session = (await claimSessionValue(db, 'status', id, NOW))!;
    const opened = await pages().surveyBySession(reference, session);
    expect(opened?.appointment).toBeNull();
    const state = opened!.state;
    if (state.kind !== 'choose') throw new Error(`expected windows, got ${state.kind}`);
    expect(state.windows[0]).toEqual({
      value: '2026-12-07-am',
      date: '2026-12-07',
      window: 'am',
      words: 'Monday 7 December, morning, 8am to 1pm',
    });

    // Without a form token, or a window, nothing is booked.
    expect(await pages().surveyForm(reference, session, form({ window: '2026-12-07-am' }))).toMatchObject({
      kind: 'choose',
      message: words.reload,
    });
    expect(await pages().surveyForm(reference, session, form({ formToken: state.formToken }))).toMatchObject({
      kind: 'choose',
      message: words.choose,
    });
    const booked = await pages().surveyForm(reference, session, form({ formToken: state.formToken, window: '2026-12-07-am' }));
    expect(booked).toMatchObject({ kind: 'booked', words: 'Monday 7 December, morning, 8am to 1pm' });
    // Until Friday 17:00 it can be moved: to any window offered but its own.
    const change = booked.kind === 'booked' ? booked.change! : null;
    expect(change?.windows[0]?.value).toBe('2026-12-07-pm');
    // The same form again: the same booking.
    expect(await pages().surveyForm(reference, session, form({ formToken: state.formToken, window: '2026-12-07-pm' }))).toMatchObject({
      kind: 'booked',
      words: 'Monday 7 December, morning, 8am to 1pm',
    });
    expect((await pages().surveyBySession(reference, session))?.state).toMatchObject({
      kind: 'booked',
      words: 'Monday 7 December, morning, 8am to 1pm',
    });
    const invite = await pages().surveyInvite(reference, session);
    expect(invite).toContain('METHOD:REQUEST');
    expect(invite).toContain(reference);
  });

  it('books nothing and shows nothing without the claim’s own cookie', async () => {
    const { id, reference } = await submitEnquiryAt(db, NOW - 60_000);
    const other = await submitEnquiryAt(db, NOW - 60_000);
    const othersSession = (await claimSessionValue(db, 'status', other.id, NOW))!;
    const staffSession = (await claimSessionValue(db, 'update', id, NOW))!;
    for (const session of [undefined, 'forged', othersSession, staffSession]) {
      expect(await pages().surveyBySession(reference, session)).toBeNull();
      expect(await pages().surveyForm(reference, session, form({ formToken: 'a'.repeat(24), window: '2026-12-07-am' }))).toEqual({
        kind: 'closed',
        message: words.reload,
      });
      expect(await pages().surveyInvite(reference, session)).toBeNull();
    }
  });

  it('moves the visit, asks before cancelling it, and offers the times again once cancelled', async () => {
    const { id, reference } = await submitEnquiryAt(db, NOW - 60_000);
    const session = (await claimSessionValue(db, 'status', id, NOW))!;
    const opened = (await pages().surveyBySession(reference, session))!.state as { formToken: string };
    await pages().surveyForm(reference, session, form({ formToken: opened.formToken, window: '2026-12-07-am' }));
    const token = () => 'b'.repeat(24);
    const moved = await pages().surveyForm(reference, session, form({ intent: 'move', formToken: token(), window: '2026-12-08-pm' }));
    expect(moved).toMatchObject({
      kind: 'booked',
      words: 'Tuesday 8 December, afternoon, 12pm to 5pm',
      notice: words.moved('Tuesday 8 December, afternoon, 12pm to 5pm'),
    });
    const asked = await pages().surveyForm(reference, session, form({ intent: 'cancel-ask', formToken: token() }));
    expect(asked).toMatchObject({ kind: 'booked', change: { confirmCancel: true } });
    expect(await pages().surveyForm(reference, session, form({ intent: 'keep', formToken: token() }))).toMatchObject({
      kind: 'booked',
      change: { windows: expect.any(Array) },
    });
    const cancelled = await pages().surveyForm(reference, session, form({ intent: 'cancel', formToken: token() }));
    expect(cancelled).toMatchObject({ kind: 'choose', notice: words.cancelled('Tuesday 8 December, afternoon, 12pm to 5pm') });
    expect((await pages().surveyBySession(reference, session))?.state.kind).toBe('choose');
    // An intent the page never sends: the section as it was, nothing changed.
    expect(await pages().surveyForm(reference, session, form({ intent: 'delete', formToken: token() }))).toMatchObject({
      kind: 'choose',
      message: words.reload,
    });
  });
});
