/**
 * The one schema of the contact message (name, email, optional phone, subject, message) over the fields and rules of
 * lib/contact-fields.ts: used by POST /api/contact, and by the form before sending (which loads this
 * module when a visitor starts on the form, since zod is most of its weight).
 */
import * as z from 'zod/mini';
import { CLAIM_MESSAGES, CONTACT_MESSAGES } from '@/content/contact';
import { CLAIM_MAX, CONTACT_MAX, CONTACT_MIN } from '@/lib/enquiry-rules.mjs';
import {
  EMAIL_PATTERN,
  FORM_FIELDS,
  HONEYPOT_FIELD,
  INSTRUCTION_FIELDS,
  isCalendarDate,
  isClaimRole,
  isDamageType,
  isDesktopAnswer,
  isExcess,
  isFormField,
  isInstructingRole,
  isTelephoneNumber,
  isUkPostcode,
  isUrgencyAnswer,
  isVatAnswer,
  normaliseContactText,
  normaliseExcess,
  normalisePostcode,
  TICKED,
  todayInUk,
  type FormErrors,
  type FormField,
} from '@/lib/contact-fields';
import { ENQUIRY_KEY_FIELD, isEnquiryKey } from '@/lib/enquiry-key';
import { campaignTag, referrerOrigin, sitePath } from '@/lib/visit-attribution';

// The schema

/**
 * The contact message: the one definition of its rules, used by the form
 * before sending and by POST /api/contact. zod/mini, so the form's bundle grows by about 5 KB gzipped
 * rather than the ~90 KB of zod's classic API (decision 0005). Values are normalised first (NFC, no
 * control characters other than newlines, trimmed); anything that is not a string counts as empty.
 */
const text = (multiline: boolean) =>
  z.pipe(
    z.transform((raw: unknown) => (typeof raw === 'string' ? normaliseContactText(raw, multiline) : '')),
    z.string(),
  );

const cleaned = (clean: (raw: unknown) => string) => z.pipe(z.transform(clean), z.string());

/** An optional choice: empty, or one of the values `isOneOf` accepts. */
const choice = (isOneOf: (value: string) => boolean, message: string) =>
  z.pipe(text(false), z.string().check(z.refine((value) => value === '' || isOneOf(value), message)));

/** A field that does not count here (an instruction's, when no instructing role is chosen): always empty. */
const ignored = z.pipe(
  z.transform(() => ''),
  z.string(),
);

const postcodeOf = (required: boolean) =>
  z.pipe(
    z.pipe(
      text(false),
      z.transform((value: string) => (value === '' ? '' : normalisePostcode(value))),
    ),
    // The cap aborts before the pattern.
    z.string().check(
      ...(required ? [z.minLength(1, { message: CLAIM_MESSAGES.instructionPostcode, abort: true })] : []),
      z.maxLength(CLAIM_MAX.postcode, { message: CLAIM_MESSAGES.postcode, abort: true }),
      z.refine((value) => value === '' || isUkPostcode(value), CLAIM_MESSAGES.postcode),
    ),
  );

const contactSchema = z.object({
  name: z.pipe(
    text(false),
    z.string().check(z.minLength(CONTACT_MIN.name, CONTACT_MESSAGES.name), z.maxLength(CONTACT_MAX.name, CONTACT_MESSAGES.nameMax)),
  ),
  email: z.pipe(
    text(false),
    // The cap aborts before the pattern, so no pattern runs over a long string.
    z
      .string()
      .check(
        z.maxLength(CONTACT_MAX.email, { message: CONTACT_MESSAGES.emailMax, abort: true }),
        z.regex(EMAIL_PATTERN, CONTACT_MESSAGES.email),
      ),
  ),
  phone: z.pipe(text(false), z.string().check(z.maxLength(CONTACT_MAX.phone, CONTACT_MESSAGES.phoneMax))),
  subject: z.pipe(
    text(false),
    z
      .string()
      .check(z.minLength(CONTACT_MIN.subject, CONTACT_MESSAGES.subject), z.maxLength(CONTACT_MAX.subject, CONTACT_MESSAGES.subjectMax)),
  ),
  message: z.pipe(
    text(true),
    z
      .string()
      .check(z.minLength(CONTACT_MIN.message, CONTACT_MESSAGES.message), z.maxLength(CONTACT_MAX.message, CONTACT_MESSAGES.messageMax)),
  ),
  // The optional claim details. Each is empty or valid; none is required (but see instructionSchema).
  worsening: choice(isUrgencyAnswer, CLAIM_MESSAGES.worsening),
  habitable: choice(isUrgencyAnswer, CLAIM_MESSAGES.habitable),
  vulnerable: choice(isUrgencyAnswer, CLAIM_MESSAGES.vulnerable),
  claimRole: z.pipe(text(false), z.string().check(z.refine((value) => value === '' || isClaimRole(value), CLAIM_MESSAGES.claimRole))),
  insurer: z.pipe(text(false), z.string().check(z.maxLength(CLAIM_MAX.insurer, CLAIM_MESSAGES.insurerMax))),
  claimReference: z.pipe(text(false), z.string().check(z.maxLength(CLAIM_MAX.claimReference, CLAIM_MESSAGES.claimReferenceMax))),
  damageDate: z.pipe(
    text(false),
    z.string().check(
      z.refine((value) => value === '' || isCalendarDate(value), { message: CLAIM_MESSAGES.damageDate, abort: true }),
      z.refine((value) => value === '' || value <= todayInUk(), CLAIM_MESSAGES.damageDateFuture),
    ),
  ),
  damageType: z.pipe(text(false), z.string().check(z.refine((value) => value === '' || isDamageType(value), CLAIM_MESSAGES.damageType))),
  postcode: postcodeOf(false),
  noPhoneCalls: choice((value) => value === TICKED, CLAIM_MESSAGES.noPhoneCalls),
  supportNeeds: z.pipe(text(true), z.string().check(z.maxLength(CLAIM_MAX.supportNeeds, CLAIM_MESSAGES.supportNeedsMax))),
  ...(Object.fromEntries(INSTRUCTION_FIELDS.map((field) => [field, ignored])) as Record<
    (typeof INSTRUCTION_FIELDS)[number],
    typeof ignored
  >),
  // Where the enquiry came from (lib/visit-attribution.ts): set by the form, never typed, so a value that
  // is not what the form sends is dropped rather than refused.
  sentFrom: cleaned(sitePath),
  landingPage: cleaned(sitePath),
  referrer: cleaned(referrerOrigin),
  utmSource: cleaned(campaignTag),
  utmMedium: cleaned(campaignTag),
  utmCampaign: cleaned(campaignTag),
  // Made by the form, never typed: one that is not a key is dropped, and the server compares content instead.
  [ENQUIRY_KEY_FIELD]: cleaned((raw) => (isEnquiryKey(raw) ? raw : '')),
  // Bounded by the body's size; the server judges whether it could be real before asking Google.
  recaptchaToken: z.pipe(
    z.transform((raw: unknown) => (typeof raw === 'string' ? raw.trim() : '')),
    z.string(),
  ),
  [HONEYPOT_FIELD]: z.pipe(
    z.transform((raw: unknown) => (typeof raw === 'string' ? raw.trim() : raw ? String(raw) : '')),
    z.string(),
  ),
});

/**
 * The same message from an insurer or a loss adjuster: the instruction's fields count, and the
 * policyholder's name and telephone and the property's address and postcode are required (an
 * instruction without them costs a day of e-mails).
 */
const instructionSchema = z.extend(contactSchema, {
  policyholderName: z.pipe(
    text(false),
    z
      .string()
      .check(z.minLength(1, CLAIM_MESSAGES.policyholderName), z.maxLength(CLAIM_MAX.policyholderName, CLAIM_MESSAGES.policyholderNameMax)),
  ),
  policyholderPhone: z.pipe(
    text(false),
    z
      .string()
      .check(
        z.maxLength(CLAIM_MAX.policyholderPhone, { message: CLAIM_MESSAGES.policyholderPhoneMax, abort: true }),
        z.refine(isTelephoneNumber, CLAIM_MESSAGES.policyholderPhone),
      ),
  ),
  propertyAddress: z.pipe(
    text(true),
    z
      .string()
      .check(z.minLength(1, CLAIM_MESSAGES.propertyAddress), z.maxLength(CLAIM_MAX.propertyAddress, CLAIM_MESSAGES.propertyAddressMax)),
  ),
  postcode: postcodeOf(true),
  vatRegistered: choice(isVatAnswer, CLAIM_MESSAGES.vatRegistered),
  excess: z.pipe(
    z.pipe(
      text(false),
      z.transform((value: string) => (value === '' ? '' : normaliseExcess(value))),
    ),
    z.string().check(
      z.maxLength(CLAIM_MAX.excess, { message: CLAIM_MESSAGES.excess, abort: true }),
      z.refine((value) => value === '' || isExcess(value), CLAIM_MESSAGES.excess),
    ),
  ),
  desktopAssessment: choice(isDesktopAnswer, CLAIM_MESSAGES.desktopAssessment),
});

export type ContactSubmission = z.infer<typeof contactSchema>;
type FieldIssue = { path: string; msg: string };

type ContactParse = { success: true; data: ContactSubmission } | { success: false; errors: FieldIssue[] };

/** Parses a submission; on failure, the first message per field, in the form's field order. */
export function parseContact(input: unknown): ContactParse {
  const role = input !== null && typeof input === 'object' ? (input as Record<string, unknown>).claimRole : undefined;
  const instructing = typeof role === 'string' && isInstructingRole(normaliseContactText(role, false));
  const result = (instructing ? instructionSchema : contactSchema).safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const byPath = new Map<string, string>();
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    if (!byPath.has(path)) byPath.set(path, issue.message);
  }
  const order = (path: string) => {
    const index = FORM_FIELDS.indexOf(path as FormField);
    return index === -1 ? FORM_FIELDS.length : index;
  };
  const errors = [...byPath].map(([path, msg]) => ({ path, msg })).sort((a, b) => order(a.path) - order(b.path));
  return { success: false, errors };
}

function formErrorsOf(parsed: ContactParse): FormErrors {
  if (parsed.success) return {};
  const errors: FormErrors = {};
  for (const { path, msg } of parsed.errors) if (isFormField(path)) errors[path] = msg;
  return errors;
}

/** The form's check before sending: the fields as the server will store them, or the errors. */
type ContactCheck = { fields: ContactSubmission; errors: Record<never, string> } | { fields: null; errors: FormErrors };

export function validateContact(input: Partial<Record<FormField, unknown>>): ContactCheck {
  const parsed = parseContact(input);
  return parsed.success ? { fields: parsed.data, errors: {} } : { fields: null, errors: formErrorsOf(parsed) };
}
