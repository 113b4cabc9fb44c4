/**
 * The contact form's fields, limits and text normalisation (SPEC sections 5 and 9); the rules
 * themselves are one schema in `lib/contact-schema.ts`, used by the form and the server alike.
 */

export const CONTACT_FIELDS = ['name', 'email', 'phone', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** The hidden field people never see; a bot that fills it is answered normally and kept as spam. */
export const HONEYPOT_FIELD = 'website';

// The limits and messages live with the feature's other copy in content/contact.ts.
import { CONTACT_MAX, CONTACT_MESSAGES, CONTACT_MIN } from '@/content/contact';
import { CLAIM_FIELDS, isClaimField, type ClaimField } from '@/lib/claim-rules';
import { PHOTO_FIELD } from '@/lib/photo-rules';

export { CONTACT_MAX, CONTACT_MESSAGES, CONTACT_MIN };
/** Longest reCAPTCHA token accepted (real ones are about 2 KB). */
export const RECAPTCHA_TOKEN_MAX = 8000;
export const RECAPTCHA_ACTION = 'contact_form';

/**
 * The "simple {email} pattern": something@something.something, no spaces. Written so it runs in linear
 * time: the obvious /^[^\s@]+@[^\s@]+\.[^\s@]+$/ backtracks quadratically on a long run of dots (about
 * 1 s of CPU for 32 KB). This accepts the same strings: after the '@', one character, then up to the
 * first dot, the dot, and at least one more character (see lib/contact-rules.test.ts).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

// C0 and C1 control characters except the newline (tab included: it has no place in an enquiry).
const CONTROL_EXCEPT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g;
// Line and paragraph separators act as newlines in some mail clients.
const LINE_BREAKS = /\r\n|[\r\u2028\u2029\u0085]/g;

/**
 * NFC, well-formed UTF-16 (lone surrogates replaced), one kind of newline, no other control
 * characters, trimmed. Single-line fields lose their newlines too (they end up in mail headers).
 */
export function normaliseContactText(value: string, multiline: boolean): string {
  let text = value.toWellFormed().normalize('NFC').replace(LINE_BREAKS, '\n');
  text = multiline ? text.replace(CONTROL_EXCEPT_NEWLINE, '') : text.replace(/\n+/g, ' ').replace(CONTROL_EXCEPT_NEWLINE, '');
  return text.trim();
}

export const isMultiline = (field: ContactField) => field === 'message';

export function normaliseContactValues(input: Partial<Record<ContactField, unknown>>): ContactValues {
  const values = {} as ContactValues;
  for (const field of CONTACT_FIELDS) {
    const raw = input[field];
    values[field] = typeof raw === 'string' ? normaliseContactText(raw, isMultiline(field)) : '';
  }
  return values;
}

export const isContactField = (value: unknown): value is ContactField =>
  typeof value === 'string' && (CONTACT_FIELDS as readonly string[]).includes(value);

/** Every field of the form in its order on the page: the spec's, then the optional claim details and photos. */
export const FORM_FIELDS = [...CONTACT_FIELDS, ...CLAIM_FIELDS, PHOTO_FIELD] as const;
export type FormField = ContactField | ClaimField | typeof PHOTO_FIELD;
export type FormErrors = Partial<Record<FormField, string>>;
export const isFormField = (value: unknown): value is FormField => isContactField(value) || isClaimField(value) || value === PHOTO_FIELD;
