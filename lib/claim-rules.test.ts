import { describe, expect, it } from 'vitest';
import { isCalendarDate, isUkPostcode, normalisePostcode, todayInUk } from '@/lib/claim-rules';
import { parseContact, validateContact } from '@/lib/contact-schema';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

describe('postcodes', () => {
  it.each([
    ['g67 1ab', 'G67 1AB'],
    [' G671AB ', 'G67 1AB'],
    ['sw1a1aa', 'SW1A 1AA'],
    ['EH1  1YZ', 'EH1 1YZ'],
    ['m1 1ae', 'M1 1AE'],
    ['B33 8TH', 'B33 8TH'],
    ['CR2 6XH', 'CR2 6XH'],
    ['DN55 1PT', 'DN55 1PT'],
    ['W1A 0AX', 'W1A 0AX'],
    ['ec1a 1bb', 'EC1A 1BB'],
  ])('%j is a postcode, written %j', (typed, normalised) => {
    expect(normalisePostcode(typed)).toBe(normalised);
    expect(isUkPostcode(normalised)).toBe(true);
  });

  it.each(['G67', '12345', 'G67 1A', 'QA1 1AA', 'G67 1CI', 'G67 1AB1', 'GIR0AAX', 'G6 7 1AB!', 'ABCDEFGHIJK', '<script>'])(
    '%j is not a postcode',
    (typed) => {
      expect(isUkPostcode(normalisePostcode(typed))).toBe(false);
    },
  );

  it('the schema normalises a postcode and explains one it refuses', () => {
    const parsed = parseContact({ ...valid, postcode: ' g67  1ab ' });
    expect(parsed.success && parsed.data.postcode).toBe('G67 1AB');
    expect(validateContact({ ...valid, postcode: 'not a postcode' }).errors).toEqual({ postcode: 'Enter a UK postcode, like G67 1AB' });
    expect(validateContact({ ...valid, postcode: 'x'.repeat(5000) }).errors).toEqual({ postcode: 'Enter a UK postcode, like G67 1AB' });
  });
});

describe('the date of the damage', () => {
  it('is a real calendar date written YYYY-MM-DD', () => {
    for (const good of ['2026-11-14', '2024-02-29', '2000-01-01']) expect(isCalendarDate(good)).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-00-10', '2026-11-31', '14/11/2026', '2026-1-1', '1899-12-31', '']) {
      expect(isCalendarDate(bad)).toBe(false);
    }
  });

  it('today in Scotland, across midnight UTC in summer time', () => {
    expect(todayInUk(new Date('2026-07-01T23:30:00Z'))).toBe('2026-07-02');
    expect(todayInUk(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });

  it('not in the future, with a clear message; today and the past are fine', () => {
    const today = todayInUk();
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(validateContact({ ...valid, damageDate: today }).errors).toEqual({});
    expect(validateContact({ ...valid, damageDate: '2025-12-25' }).errors).toEqual({});
    expect(validateContact({ ...valid, damageDate: tomorrow }).errors).toEqual({
      damageDate: 'The date of the damage cannot be in the future',
    });
    expect(validateContact({ ...valid, damageDate: '31/02/2026' }).errors).toEqual({
      damageDate: 'Enter the date of the damage as a real date, like 14/11/2026',
    });
  });
});

describe('the other claim details', () => {
  it('are all optional: none given, no claim', () => {
    expect(validateContact(valid)).toMatchObject({ errors: {}, claim: null });
  });

  it('accept only the listed roles and types of damage', () => {
    expect(validateContact({ ...valid, claimRole: 'insurer', damageType: 'fire-smoke' })).toMatchObject({
      errors: {},
      claim: { claimRole: 'insurer', damageType: 'fire-smoke', insurer: '', claimReference: '', damageDate: '', postcode: '' },
    });
    expect(validateContact({ ...valid, claimRole: 'landlord', damageType: 'flood' }).errors).toEqual({
      claimRole: 'Choose who is getting in touch from the list',
      damageType: 'Choose the type of damage from the list',
    });
  });

  it('cap the insurer at 100 characters and the claim reference at 60, after normalising', () => {
    expect(validateContact({ ...valid, insurer: ` ${'a'.repeat(100)} `, claimReference: 'b'.repeat(60) }).errors).toEqual({});
    expect(validateContact({ ...valid, insurer: 'a'.repeat(101), claimReference: 'b'.repeat(61) }).errors).toEqual({
      insurer: 'Insurer must be at most 100 characters long',
      claimReference: 'Claim or policy reference must be at most 60 characters long',
    });
  });

  it('report their errors after the spec’s fields, in the order of the form', () => {
    const parsed = parseContact({ postcode: 'nope', name: 'J', claimRole: 'x' });
    expect(parsed.success ? [] : parsed.errors.map((error) => error.path)).toEqual([
      'name',
      'email',
      'subject',
      'message',
      'claimRole',
      'postcode',
    ]);
  });
});
