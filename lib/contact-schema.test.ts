import { describe, expect, it } from 'vitest';
import { normaliseContactText, type ContactField } from '@/lib/contact-rules';
import { parseContact, schemaErrors, validateContact } from '@/lib/contact-schema';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

describe('section 5 messages, verbatim', () => {
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
      expect(schemaErrors(input)).toEqual({ [field]: message });
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
        claimRole: '',
        insurer: '',
        claimReference: '',
        damageDate: '',
        damageType: '',
        postcode: '',
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
      expect(schemaErrors({ ...valid, [field]: 'x'.repeat(max) })).toEqual({});
      expect(schemaErrors({ ...valid, [field]: 'x'.repeat(max + 1) })).toEqual({ [field]: message });
      expect(validateContact({ ...valid, [field]: 'x'.repeat(max + 1) }).errors).toEqual({ [field]: message });
    });
  }
  it('email: 254 accepted, 255 refused', () => {
    const at = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    expect(schemaErrors({ ...valid, email: at(254) })).toEqual({});
    expect(schemaErrors({ ...valid, email: at(255) })).toEqual({ email: 'Email must be at most 254 characters long' });
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
    expect(schemaErrors({ ...valid, name: 'J\u0000\u0000' })).toEqual({ name: 'Name must be at least 2 characters long' });
  });
});

// The form and the server use one schema; what they must still agree on is the normalised values the
// form keeps (normaliseContactValues) and the ones the server stores (the schema's output).
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
        const { name, email, phone, subject, message } = parsed.data;
        expect({ name, email, phone, subject, message }).toEqual(browser.values);
        expect(browser.errors).toEqual({});
      } else {
        expect(browser.errors).toEqual(schemaErrors(input));
        expect(Object.keys(browser.errors).length).toBeGreaterThan(0);
      }
    });
  });
});
