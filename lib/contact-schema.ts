/**
 * The enquiry form's rules (SPEC sections 3, 5 and 9), used by the form before sending and by
 * POST /api/contact alike: its fields, the limits of its photos, how its text is normalised, the
 * optional insurance-claim details, and the one schema that checks them. The limits and messages a
 * visitor reads are with the feature's other copy in content/contact.ts.
 */
import * as z from 'zod/mini';
import {
  CLAIM_MAX,
  CLAIM_MESSAGES,
  CLAIM_ROLES,
  CONTACT_MAX,
  CONTACT_MESSAGES,
  CONTACT_MIN,
  DAMAGE_TYPES,
  ENQUIRY_TEXT_MAX_BYTES,
} from '@/content/contact';
import { plainText } from '@/lib/plain-text';
import { ATTRIBUTION_FIELDS, campaignTag, referrerOrigin, sitePath, type Attribution } from '@/lib/visit-attribution';

// Fields

export const CONTACT_FIELDS = ['name', 'email', 'phone', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Record<ContactField, string>;

export const CLAIM_FIELDS = ['claimRole', 'insurer', 'claimReference', 'damageDate', 'damageType', 'postcode'] as const;
export type ClaimField = (typeof CLAIM_FIELDS)[number];
export type ClaimValues = Record<ClaimField, string>;
export const EMPTY_CLAIM: ClaimValues = { claimRole: '', insurer: '', claimReference: '', damageDate: '', damageType: '', postcode: '' };

export const PHOTO_FIELD = 'photos';

/** The hidden field people never see; a bot that fills it is answered normally and kept as spam. */
export const HONEYPOT_FIELD = 'website';

/** Every field of the form in its order on the page: the spec's, then the optional claim details and photos. */
export const FORM_FIELDS = [...CONTACT_FIELDS, ...CLAIM_FIELDS, PHOTO_FIELD] as const;
export type FormField = (typeof FORM_FIELDS)[number];
export type FormErrors = Partial<Record<FormField, string>>;

const isOneOf =
  <T extends string>(list: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (list as readonly string[]).includes(value);
export const isContactField = isOneOf(CONTACT_FIELDS);
export const isClaimField = isOneOf(CLAIM_FIELDS);
export const isFormField = isOneOf(FORM_FIELDS);

// Photos: what the form checks before sending and the server enforces while it reads the upload.

export const PHOTO_MAX_COUNT = 6;
/** 10 MB, in decimal units as phones and the form show sizes. */
export const PHOTO_MAX_BYTES = 10_000_000;
/** Longest side of a stored photo, in pixels. */
export const PHOTO_MAX_SIDE = 2048;
/** The whole multipart body: every photo at its cap, the text fields, and the multipart framing. */
export const PHOTO_BODY_MAX_BYTES = PHOTO_MAX_COUNT * PHOTO_MAX_BYTES + ENQUIRY_TEXT_MAX_BYTES + 64 * 1024;
/** Multipart enquiries the server receives at once per process; beyond it 503 with Retry-After (each may put 60 MB on disk). */
export const MAX_CONCURRENT_UPLOADS = 4;

/** `3.4 MB`, `820 KB`: a file's size as the form shows it (decimal units, as phones show them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

// reCAPTCHA

export const RECAPTCHA_ACTION = 'contact_form';

// Text

/**
 * The "simple {email} pattern": something@something.something, no spaces. Written so it runs in linear
 * time: the obvious /^[^\s@]+@[^\s@]+\.[^\s@]+$/ backtracks quadratically on a long run of dots (about
 * 1 s of CPU for 32 KB). This accepts the same strings: after the '@', one character, then up to the
 * first dot, the dot, and at least one more character (see lib/contact-schema.test.ts).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

/**
 * NFC, well-formed UTF-16 (lone surrogates replaced), one kind of newline, no other control
 * characters, trimmed. Single-line fields lose their newlines too (they end up in mail headers).
 */
export function normaliseContactText(value: string, multiline: boolean): string {
  return plainText(value.toWellFormed().normalize('NFC'), multiline ? 'keep' : 'space').trim();
}

// Claim details

export const isClaimRole = (value: string) => CLAIM_ROLES.some((role) => role.value === value);
export const isDamageType = (value: string) => DAMAGE_TYPES.some((type) => type.value === value);
export const claimRoleLabel = (value: string) => CLAIM_ROLES.find((role) => role.value === value)?.label ?? value;
export const damageTypeLabel = (value: string) => DAMAGE_TYPES.find((type) => type.value === value)?.label ?? value;

/**
 * A UK postcode without its space (the Royal Mail formats A9, A99, A9A, AA9, AA99, AA9A, then 9AA), in
 * upper case. Linear: no nested quantifiers.
 */
const POSTCODE_COMPACT = /^(?:[A-PR-UWYZ][0-9][0-9A-HJKPSTUW]?|[A-PR-UWYZ][A-HK-Y][0-9][0-9ABEHMNPRV-Y]?)[0-9][ABD-HJLNP-UW-Z]{2}$/;

/** `g670xx`, ` G67  0XX ` → `G67 0XX`; anything else is returned upper-cased and trimmed, to be refused. */
export function normalisePostcode(value: string): string {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (compact.length < 5 || compact.length > 7) return value.trim().toUpperCase();
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

export function isUkPostcode(normalised: string): boolean {
  return normalised.length <= CLAIM_MAX.postcode && POSTCODE_COMPACT.test(normalised.replace(' ', ''));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD (what a date input sends). */
export function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today's date in Scotland, YYYY-MM-DD: the latest date of damage a visitor can give. */
export function todayInUk(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

// The schema

/**
 * The contact message (SPEC sections 3 and 5): the one definition of its rules, used by the form
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

export const contactSchema = z.object({
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
  // The optional claim details. Each is empty or valid; none is required.
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
  postcode: z.pipe(
    z.pipe(
      text(false),
      z.transform((value: string) => (value === '' ? '' : normalisePostcode(value))),
    ),
    // The cap aborts before the pattern.
    z.string().check(
      z.maxLength(CLAIM_MAX.postcode, { message: CLAIM_MESSAGES.postcode, abort: true }),
      z.refine((value) => value === '' || isUkPostcode(value), CLAIM_MESSAGES.postcode),
    ),
  ),
  // Where the enquiry came from (lib/visit-attribution.ts): set by the form, never typed, so a value that
  // is not what the form sends is dropped rather than refused.
  sentFrom: cleaned(sitePath),
  landingPage: cleaned(sitePath),
  referrer: cleaned(referrerOrigin),
  utmSource: cleaned(campaignTag),
  utmMedium: cleaned(campaignTag),
  utmCampaign: cleaned(campaignTag),
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

export type ContactSubmission = z.infer<typeof contactSchema>;
export type FieldIssue = { path: string; msg: string };

export type ContactParse = { success: true; data: ContactSubmission } | { success: false; errors: FieldIssue[] };

/** Parses a submission; on failure, the first message per field, in the form's field order. */
export function parseContact(input: unknown): ContactParse {
  const result = contactSchema.safeParse(input);
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

/** The first message per form field, as the form shows them (empty when valid). */
export function schemaErrors(input: unknown): FormErrors {
  return formErrorsOf(parseContact(input));
}

function formErrorsOf(parsed: ContactParse): FormErrors {
  if (parsed.success) return {};
  const errors: FormErrors = {};
  for (const { path, msg } of parsed.errors) if (isFormField(path)) errors[path] = msg;
  return errors;
}

/** The claim details of a submission; null when none was given. */
export function claimValues(data: ContactSubmission): ClaimValues | null {
  const claim = Object.fromEntries(CLAIM_FIELDS.map((field) => [field, data[field]])) as ClaimValues;
  return CLAIM_FIELDS.some((field) => claim[field] !== '') ? claim : null;
}

export const attributionValues = (data: ContactSubmission): Attribution =>
  Object.fromEntries(ATTRIBUTION_FIELDS.map((field) => [field, data[field]])) as Attribution;

export const contactValues = (data: ContactSubmission): ContactValues => ({
  name: data.name,
  email: data.email,
  phone: data.phone,
  subject: data.subject,
  message: data.message,
});

/** The form's check before sending: the values as the server will store them, or the errors. */
export type ContactCheck =
  { values: ContactValues; claim: ClaimValues | null; errors: Record<never, string> } | { values: null; claim: null; errors: FormErrors };

export function validateContact(input: Partial<Record<FormField, unknown>>): ContactCheck {
  const parsed = parseContact(input);
  if (!parsed.success) return { values: null, claim: null, errors: formErrorsOf(parsed) };
  return { values: contactValues(parsed.data), claim: claimValues(parsed.data), errors: {} };
}
