/**
 * The enquiry form's fields and rules (SPEC sections 3, 5 and 9), used by the form and by
 * POST /api/contact alike: its fields, the limits of its photos, how its text is normalised and the
 * optional insurance-claim details. The one schema that checks a submission against them is
 * lib/contact-schema.ts, kept apart because it carries zod: the form loads it when a visitor starts
 * on it, not with the page. The limits and messages a visitor reads are in content/contact.ts.
 */
import { CLAIM_MAX, CLAIM_ROLES, DAMAGE_TYPES, ENQUIRY_TEXT_MAX_BYTES } from '@/content/contact';
import { plainText } from '@/lib/plain-text';

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
export const MAX_CONCURRENT_UPLOADS = 6;

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
