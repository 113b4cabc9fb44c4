import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { ENQUIRY_RETENTION_MONTHS, ERROR_LOG_RETENTION_DAYS, privacySections } from '@/content/privacy';
import { storeErrorLog } from '@/server/error-log/store';
import { purgeExpired } from '@/server/upkeep/retention';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

let db: Client;
let cleanup: () => void;
let dir: string;
beforeEach(async () => {
  ({ db, cleanup, dir } = await tempDatabase());
});
afterEach(() => cleanup());

async function submitAt(at: number, subject: string, extra: Record<string, string> = {}) {
  await submitEnquiry(db, { ...valid, subject, ...extra }, { at });
}

describe('retention: what the privacy page promises', () => {
  it('states the periods the server enforces', () => {
    const text = privacySections.flatMap((section) => section.paragraphs).join(' ');
    expect(text).toContain(`Enquiries that do not lead to work are deleted after ${ENQUIRY_RETENTION_MONTHS} months`);
    expect(text).toContain(`technical error records after ${ERROR_LOG_RETENTION_DAYS} days`);
  });

  it('says why the support needs are asked, that they are optional, kept as long as the enquiry and deleted sooner on request', () => {
    const text = privacySections.flatMap((section) => section.paragraphs).join(' ');
    expect(text).toContain('We ask whether anything would help us work with you only so that we can make the repair work for you');
    expect(text).toContain('It is optional.');
    expect(text).toContain(
      `it is deleted with the enquiry after ${ENQUIRY_RETENTION_MONTHS} months, or sooner when you ask us to delete your information`,
    );
  });

  it('deletes enquiries (with their notifications, pending or not) older than 12 months, and error logs older than 90 days', async () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    await submitAt(Date.parse('2025-11-23T11:59:59Z'), 'Just past the period');
    await submitAt(Date.parse('2025-11-23T12:00:01Z'), 'Just inside the period');
    await db.execute("UPDATE enquiry_notifications SET status = 'sent' WHERE enquiry_id = 2");
    const record = { application: 'homecare-web', level: 'error', message: 'boom', source: 'frontend', category: 'client' } as const;
    const quiet = { reportedBy: 'visitor' as const, db, stdout: () => undefined };
    await storeErrorLog(record, quiet);
    await db.execute({ sql: 'UPDATE error_logs SET received_at = ? WHERE id = 1', args: ['2026-08-25T11:59:59.000Z'] });
    // Another failure: a repeat of the first would count on its row (server/error-log/store.ts).
    await storeErrorLog({ ...record, message: 'boom again' }, quiet);
    await db.execute({ sql: 'UPDATE error_logs SET received_at = ? WHERE id = 2', args: ['2026-08-25T12:00:01.000Z'] });

    expect(await purgeExpired(db, now, { photosRoot: path.join(dir, 'photos') })).toEqual({
      enquiries: 1,
      errorLogs: 1,
      portfolioPeople: 0,
    });
    expect((await db.execute('SELECT subject FROM enquiries')).rows.map((row) => row.subject)).toEqual(['Just inside the period']);
    // The kept enquiry's notification (the same address had its one acknowledgement of the day with the first).
    expect((await db.execute('SELECT enquiry_id FROM enquiry_notifications')).rows.map((row) => row.enquiry_id)).toEqual([2]);
    expect((await db.execute('SELECT id FROM error_logs')).rows.map((row) => row.id)).toEqual([2]);
    expect(await purgeExpired(db, now, { photosRoot: path.join(dir, 'photos') })).toEqual({
      enquiries: 0,
      errorLogs: 0,
      portfolioPeople: 0,
    });
  });

  it('the urgency answers (someone at risk among them), an instruction’s policyholder and the support needs go with their enquiry', async () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    await submitAt(Date.parse('2025-11-01T12:00:00Z'), 'An old instruction', {
      claimRole: 'insurer',
      policyholderName: 'Ann Policy',
      policyholderPhone: '07700 900123',
      propertyAddress: '1 High Street',
      postcode: 'G65 0AA',
      vulnerable: 'yes',
      noPhoneCalls: 'yes',
      supportNeeds: 'Speak to my son Ali.',
    });
    expect(
      Number(
        (
          await db.execute(
            "SELECT count(*) AS n FROM enquiries WHERE vulnerable = 'yes' AND no_phone_calls = 'yes' AND support_needs IS NOT NULL",
          )
        ).rows[0]!.n,
      ),
    ).toBe(1);
    await purgeExpired(db, now, { photosRoot: path.join(dir, 'photos') });
    const left = await db.execute(
      'SELECT count(*) AS n FROM enquiries WHERE vulnerable IS NOT NULL OR policyholder_name IS NOT NULL OR policyholder_phone IS NOT NULL OR property_address IS NOT NULL OR no_phone_calls IS NOT NULL OR support_needs IS NOT NULL',
    );
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});
