import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES } from '@/content/contact';
import { CONTACT_MAX } from '@/lib/enquiry-rules.mjs';
import {
  EMAIL_PATTERN,
  hasClaim,
  isCalendarDate,
  isUkPostcode,
  isUrgent,
  hasSupportNeeds,
  normaliseContactText,
  normalisePostcode,
  todayInUk,
  urgencyReasons,
  type ContactField,
  type FormErrors,
} from '@/lib/contact-fields';
import { parseContact, validateContact } from '@/lib/contact-schema';

const errorsOf = (input: Parameters<typeof validateContact>[0]): FormErrors => validateContact(input).errors;
const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

describe('the validation messages, verbatim', () => {
  const cases: [ContactField, string, string][] = [
    ['name', 'J', 'Name must be at least 2 characters long'],
    ['name', '  J  ', 'Name must be at least 2 characters long'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['email', '', 'Please enter a valid email address'],
    ['email', 'a b@example.com', 'Please enter a valid email address'],
    ['subject', 'Roof', 'Subject must be at least 5 characters long'],
    ['subject', '   Roof    ', 'Subject must be at least 5 characters long'],
    ['message', 'Too short', 'Message must be at least 10 characters long'],
    ['message', ' 123456789 \n', 'Message must be at least 10 characters long'],
  ];
  for (const [field, value, message] of cases) {
    it(`${field} ${JSON.stringify(value)} → ${message}`, () => {
      const input = { ...valid, [field]: value };
      expect(validateContact(input).errors).toEqual({ [field]: message });
    });
  }

  it('accepts the minimum lengths after trimming and leaves phone optional', () => {
    const input = { name: ' Jo ', email: ' a@b.co ', subject: ' Leaks ', message: ' 1234567890 ' };
    expect(validateContact(input).errors).toEqual({});
    const parsed = parseContact(input);
    expect(parsed).toEqual({
      success: true,
      data: {
        name: 'Jo',
        email: 'a@b.co',
        phone: '',
        subject: 'Leaks',
        message: '1234567890',
        // The claim details, all optional and empty here.
        worsening: '',
        habitable: '',
        vulnerable: '',
        claimRole: '',
        insurer: '',
        claimReference: '',
        damageDate: '',
        damageType: '',
        postcode: '',
        // An instruction's: they count only from an insurer or a loss adjuster.
        policyholderName: '',
        policyholderPhone: '',
        propertyAddress: '',
        vatRegistered: '',
        excess: '',
        desktopAssessment: '',
        // What would help us work with the person.
        noPhoneCalls: '',
        supportNeeds: '',
        // Where it came from: set by the form, none here.
        sentFrom: '',
        landingPage: '',
        referrer: '',
        utmSource: '',
        utmMedium: '',
        utmCampaign: '',
        // The enquiry's key: made by the form, none here.
        enquiryKey: '',
        recaptchaToken: '',
        website: '',
      },
    });
  });

  it('reports every broken field at once, in the form order', () => {
    expect(parseContact({})).toEqual({
      success: false,
      errors: [
        { path: 'name', msg: 'Name must be at least 2 characters long' },
        { path: 'email', msg: 'Please enter a valid email address' },
        { path: 'subject', msg: 'Subject must be at least 5 characters long' },
        { path: 'message', msg: 'Message must be at least 10 characters long' },
      ],
    });
  });
});

describe('maximum lengths', () => {
  const cases: [ContactField, number, string][] = [
    ['name', 100, 'Name must be at most 100 characters long'],
    ['phone', 40, 'Phone must be at most 40 characters long'],
    ['subject', 200, 'Subject must be at most 200 characters long'],
    ['message', 5000, 'Message must be at most 5000 characters long'],
  ];
  for (const [field, max, message] of cases) {
    it(`${field}: ${max} accepted, ${max + 1} refused`, () => {
      expect(validateContact({ ...valid, [field]: 'x'.repeat(max) }).errors).toEqual({});
      expect(validateContact({ ...valid, [field]: 'x'.repeat(max + 1) }).errors).toEqual({ [field]: message });
      expect(validateContact({ ...valid, [field]: 'x'.repeat(max + 1) }).errors).toEqual({ [field]: message });
    });
  }
  it('email: 254 accepted, 255 refused', () => {
    const at = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    expect(validateContact({ ...valid, email: at(254) }).errors).toEqual({});
    expect(validateContact({ ...valid, email: at(255) }).errors).toEqual({ email: 'Email must be at most 254 characters long' });
  });
});

describe('normalisation', () => {
  it('composes to NFC', () => {
    expect(normaliseContactText('Jose\u0301', false)).toBe('Jos\u00e9');
  });
  it('drops control characters but keeps newlines in the message', () => {
    expect(normaliseContactText('a\u0000b\tc\u007f\u0085d\r\ne\u001bf', true)).toBe('abc\nd\nef');
  });
  it('turns newlines into spaces in single-line fields (they reach mail headers)', () => {
    expect(normaliseContactText('Jo\r\nBcc: x@evil.test', false)).toBe('Jo Bcc: x@evil.test');
    expect(normaliseContactText('Jo\u2028Bloggs', false)).toBe('Jo Bloggs');
  });
  it('replaces lone surrogates', () => {
    expect(normaliseContactText('ab\ud800cd', false)).toBe('ab\ufffdcd');
  });
  it('counts the minimum after removing control characters', () => {
    expect(validateContact({ ...valid, name: 'J\u0000\u0000' }).errors).toEqual({ name: 'Name must be at least 2 characters long' });
  });
});

// The form sends what the schema made of its values, and the server stores the schema's output.
describe('the values the form keeps are the values the server stores', () => {
  const inputs: Record<string, unknown>[] = [
    valid,
    {},
    { ...valid, name: 42, email: null, subject: ['array'], message: { object: true } },
    { ...valid, email: 'jo@example' },
    { ...valid, email: '@example.com' },
    { ...valid, email: `${'a'.repeat(250)}@b.co` },
    { ...valid, name: '\u0000\u0001', subject: '\n\n\n\n\n\nabc' },
    { ...valid, message: `${'é'.repeat(4999)}\u0000x` },
    { ...valid, message: 'e\u0301'.repeat(5000) },
    { ...valid, phone: ' +44 (0)141 496 0123 ' },
    { ...valid, phone: '9'.repeat(41) },
    { ...valid, name: '👩‍👩‍👧‍👦', subject: '\u202e\u202e\u202e\u202e\u202e' },
    { ...valid, subject: '    \t    ' },
  ];
  inputs.forEach((input, index) => {
    it(`case ${index}`, () => {
      const browser = validateContact(input);
      const parsed = parseContact(input);
      if (parsed.success) {
        expect(browser.fields).toEqual(parsed.data);
        expect(browser.errors).toEqual({});
      } else {
        expect(browser.errors).toEqual(Object.fromEntries(parsed.errors.map(({ path, msg }) => [path, msg])));
        expect(Object.keys(browser.errors).length).toBeGreaterThan(0);
      }
    });
  });
});

const emailError = (email: string) => errorsOf({ name: 'Jo', email, subject: 'Roof leak', message: 'Water is coming in.' }).email;

// The "simple email pattern" as first written; it backtracks quadratically, so it is kept
// here only to prove the linear-time rewrite accepts exactly the same strings.
// eslint-disable-next-line regexp/no-super-linear-backtracking -- the point: it is the quadratic original
const ORIGINAL_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function* allStrings(alphabet: string[], maxLength: number): Generator<string> {
  for (let length = 0; length <= maxLength; length += 1) {
    const indices = new Array<number>(length).fill(0);
    for (;;) {
      yield indices.map((index) => alphabet[index]).join('');
      let position = length - 1;
      while (position >= 0 && indices[position] === alphabet.length - 1) indices[position--] = 0;
      if (position < 0) break;
      indices[position]! += 1;
    }
  }
}

describe('the e-mail pattern', () => {
  it('accepts exactly what the original pattern accepts, for every string of up to 8 characters over a@. and space', () => {
    let compared = 0;
    for (const candidate of allStrings(['a', '@', '.', ' '], 8)) {
      compared += 1;
      if (EMAIL_PATTERN.test(candidate) !== ORIGINAL_EMAIL_PATTERN.test(candidate))
        throw new Error(`differs on ${JSON.stringify(candidate)}`);
    }
    expect(compared).toBe((4 ** 9 - 1) / 3);
  });

  it('keeps the everyday cases', () => {
    for (const good of ['jo@example.com', 'a@b.c', 'jo.bloggs+roof@mail.example.co.uk', 'x@.b.c', 'x@b..c'])
      expect(EMAIL_PATTERN.test(good), good).toBe(true);
    for (const bad of ['jo@example', 'jo@.com', 'jo@com.', 'jo example@x.com', 'jo@@x.com', '@x.com', 'jo@x.com@'])
      expect(EMAIL_PATTERN.test(bad), bad).toBe(false);
  });

  it('checks the length before the pattern: an over-long address gets the length message', () => {
    const attack = `a@${'.'.repeat(32_000)}@`;
    expect(emailError(attack)).toBe(CONTACT_MESSAGES.emailMax);
    expect(emailError(`a@${'.'.repeat(CONTACT_MAX.email - 3)}@`)).toBe(CONTACT_MESSAGES.email);
  });
});

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
    const checked = validateContact(valid);
    expect(checked.errors).toEqual({});
    expect(checked.fields && hasClaim(checked.fields)).toBe(false);
  });

  it('accept only the listed roles and types of damage', () => {
    expect(validateContact({ ...valid, claimRole: 'homeowner', damageType: 'fire-smoke' })).toMatchObject({
      errors: {},
      fields: { claimRole: 'homeowner', damageType: 'fire-smoke', insurer: '', claimReference: '', damageDate: '', postcode: '' },
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

  it('report their errors after the five message fields, in the order of the form', () => {
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

describe('the three urgency questions', () => {
  it('each takes yes, no or not sure, or nothing; anything else gets a clear message', () => {
    // Control and direction characters are removed before the check, as for every field.
    for (const answer of ['yes', 'no', 'not-sure', ' yes ', 'yes\u0000', '\u202eno', ''])
      expect(validateContact({ ...valid, worsening: answer, habitable: answer, vulnerable: answer }).errors).toEqual({});
    const hostile = ['YES', 'maybe', '1', 'yes no', '<script>', 'y'.repeat(10_000)];
    for (const answer of hostile)
      expect(validateContact({ ...valid, worsening: answer, habitable: answer, vulnerable: answer }).errors).toEqual({
        worsening: 'Choose yes, no or not sure',
        habitable: 'Choose yes, no or not sure',
        vulnerable: 'Choose yes, no or not sure',
      });
    // Not a string: as if not given.
    expect(validateContact({ ...valid, worsening: ['yes'], habitable: { no: true }, vulnerable: 1 }).errors).toEqual({});
  });

  it('any yes, or no to staying tonight, makes it urgent, with one reason per answer; not sure does not', () => {
    expect(urgencyReasons({ worsening: 'yes', habitable: 'no', vulnerable: 'yes' })).toEqual([
      'The damage is still getting worse.',
      'People cannot stay in the home tonight.',
      'Someone living there is at particular risk (very old, very young or unwell).',
    ]);
    expect(isUrgent({ habitable: 'no' })).toBe(true);
    expect(isUrgent({ vulnerable: 'yes' })).toBe(true);
    expect(isUrgent({ worsening: 'not-sure', habitable: 'not-sure', vulnerable: 'not-sure' })).toBe(false);
    expect(isUrgent({ worsening: 'no', habitable: 'yes', vulnerable: 'no' })).toBe(false);
    expect(isUrgent(null)).toBe(false);
    const checked = validateContact({ ...valid, habitable: 'no' });
    expect(checked.fields).toMatchObject({ habitable: 'no', worsening: '', vulnerable: '' });
    expect(isUrgent(checked.fields)).toBe(true);
  });
});

describe('an instruction from an insurer or a loss adjuster', () => {
  const instruction = {
    ...valid,
    claimRole: 'loss-adjuster',
    claimReference: 'CLM-2026-0042',
    policyholderName: 'Ann Policy',
    policyholderPhone: '07700 900123',
    propertyAddress: '1 High Street\nKilsyth',
    postcode: 'g65 0aa',
    vatRegistered: 'not-known',
    excess: '£1,000',
    desktopAssessment: 'yes',
  };

  it('is stored as given, normalised', () => {
    expect(validateContact(instruction)).toMatchObject({
      errors: {},
      fields: {
        policyholderName: 'Ann Policy',
        policyholderPhone: '07700 900123',
        propertyAddress: '1 High Street\nKilsyth',
        postcode: 'G65 0AA',
        vatRegistered: 'not-known',
        excess: '£1,000',
        desktopAssessment: 'yes',
      },
    });
    expect(validateContact({ ...instruction, claimRole: 'insurer', excess: ' 250.5 ' }).fields).toMatchObject({ excess: '£250.50' });
  });

  it('requires the policyholder’s name and telephone and the property’s address and postcode', () => {
    const empty = { policyholderName: ' ', policyholderPhone: '', propertyAddress: '\n', postcode: '' };
    expect(validateContact({ ...instruction, ...empty }).errors).toEqual({
      policyholderName: 'Enter the policyholder’s name',
      policyholderPhone: 'Enter the policyholder’s telephone number, like 0141 496 0123',
      propertyAddress: 'Enter the address of the property',
      postcode: 'Enter the postcode of the property, like G67 1AB',
    });
    // The excess, VAT and desktop assessment are optional.
    expect(validateContact({ ...instruction, excess: '', vatRegistered: '', desktopAssessment: '' }).errors).toEqual({});
  });

  it('refuses hostile and malformed values with a clear message each', () => {
    const errors = validateContact({
      ...instruction,
      policyholderName: 'a'.repeat(101),
      policyholderPhone: '0141 496 0123; DROP TABLE enquiries',
      propertyAddress: 'x'.repeat(301),
      postcode: "SW1A 1AA'--",
      vatRegistered: 'maybe',
      excess: '-250',
      desktopAssessment: 'not-sure',
    }).errors;
    expect(errors).toEqual({
      policyholderName: 'The policyholder’s name must be at most 100 characters long',
      policyholderPhone: 'Enter the policyholder’s telephone number, like 0141 496 0123',
      propertyAddress: 'The address must be at most 300 characters long',
      postcode: 'Enter a UK postcode, like G67 1AB',
      vatRegistered: 'Choose yes, no or not known',
      excess: 'Enter the excess as an amount in pounds, like 250 or £1,000',
      desktopAssessment: 'Choose yes or no',
    });
    for (const phone of ['123', '+44 (0)141 496 0123 ext 5', '0'.repeat(16), '<07700900123>', `${'1'.repeat(41)}`])
      expect(errorsOf({ ...instruction, policyholderPhone: phone }).policyholderPhone).toBeDefined();
    for (const phone of ['+44 141 496 0123', '(0141) 496-0123', '07700900123'])
      expect(validateContact({ ...instruction, policyholderPhone: phone }).errors).toEqual({});
    for (const excess of ['£', '1e3', '250.123', '£ 25O', '12345678', 'NaN', `£${'9'.repeat(30)}`])
      expect(validateContact({ ...instruction, excess }).errors).toEqual({
        excess: 'Enter the excess as an amount in pounds, like 250 or £1,000',
      });
    // The address keeps its lines but loses control and direction characters.
    expect(validateContact({ ...instruction, propertyAddress: 'Flat 2\u0007\r\n\u202e1 High St' }).fields?.propertyAddress).toBe(
      'Flat 2\n1 High St',
    );
  });

  it('counts for no other role: its fields are dropped, neither checked nor kept', () => {
    for (const claimRole of ['homeowner', 'agent-landlord', 'other', '']) {
      const checked = validateContact({ ...instruction, claimRole, policyholderPhone: 'nonsense', excess: 'lots', postcode: '' });
      expect(checked.errors).toEqual({});
      expect(checked.fields).toMatchObject({
        policyholderName: '',
        policyholderPhone: '',
        propertyAddress: '',
        excess: '',
        vatRegistered: '',
      });
    }
    // A role written with stray spaces is still the role.
    expect(validateContact({ ...instruction, claimRole: ' insurer ', policyholderName: '' }).errors).toEqual({
      policyholderName: 'Enter the policyholder’s name',
    });
  });
});

describe('what would help us work with the person', () => {
  it('is optional, and stored as given: a ticked "no phone calls" and the person’s own words', () => {
    expect(validateContact(valid).fields).toMatchObject({ noPhoneCalls: '', supportNeeds: '' });
    const checked = validateContact({ ...valid, noPhoneCalls: 'yes', supportNeeds: 'Wheelchair user.\nSpeak to my son Ali.' });
    expect(checked).toEqual({
      errors: {},
      fields: expect.objectContaining({ noPhoneCalls: 'yes', supportNeeds: 'Wheelchair user.\nSpeak to my son Ali.' }),
    });
  });

  it('is normalised like the message: NFC, no control or direction characters, one kind of newline, trimmed', () => {
    const checked = validateContact({
      ...valid,
      noPhoneCalls: ' yes\u0000 ',
      supportNeeds: '  Cafe\u0301 door\r\nafter 10am\u202e\u0007  ',
    });
    expect(checked.fields).toMatchObject({ noPhoneCalls: 'yes', supportNeeds: 'Café door\nafter 10am' });
    // Not a string: as if not given.
    expect(validateContact({ ...valid, noPhoneCalls: true, supportNeeds: ['x'] }).fields).toMatchObject({
      noPhoneCalls: '',
      supportNeeds: '',
    });
  });

  it('caps the words at 500 characters after normalising, and takes only a ticked box', () => {
    expect(validateContact({ ...valid, supportNeeds: ` ${'a'.repeat(500)} ` }).errors).toEqual({});
    expect(validateContact({ ...valid, supportNeeds: 'a'.repeat(501), noPhoneCalls: 'no' }).errors).toEqual({
      noPhoneCalls: 'Tick “No phone calls, please” or leave it empty',
      supportNeeds: 'What would help must be at most 500 characters long',
    });
  });

  it('reports its errors last, in the order of the form', () => {
    const parsed = parseContact({ ...valid, supportNeeds: 'a'.repeat(501), noPhoneCalls: 'on', postcode: 'nope' });
    expect(parsed.success ? [] : parsed.errors.map((error) => error.path)).toEqual(['postcode', 'noPhoneCalls', 'supportNeeds']);
  });

  it('is about the person, not the claim: it alone makes no claim, but is said to be there', () => {
    const checked = validateContact({ ...valid, noPhoneCalls: 'yes' });
    expect(checked.fields && hasClaim(checked.fields)).toBe(false);
    expect(checked.fields && hasSupportNeeds(checked.fields)).toBe(true);
    expect(hasSupportNeeds({ supportNeeds: 'Ring twice' })).toBe(true);
    expect(hasSupportNeeds(validateContact(valid).fields!)).toBe(false);
  });

  it('is the same for an instruction from an insurer', () => {
    const instruction = {
      ...valid,
      claimRole: 'insurer',
      policyholderName: 'Ann Policy',
      policyholderPhone: '07700 900123',
      propertyAddress: '1 High Street',
      postcode: 'G65 0AA',
    };
    expect(
      validateContact({ ...instruction, noPhoneCalls: 'yes', supportNeeds: 'Policyholder is deaf: text first.' }).fields,
    ).toMatchObject({
      noPhoneCalls: 'yes',
      supportNeeds: 'Policyholder is deaf: text first.',
    });
  });
});
