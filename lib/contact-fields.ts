/**
 * The enquiry form's fields and rules (name, email, optional phone, subject, message), used by the form and by
 * POST /api/contact alike: its fields, the limits of its photos, how its text is normalised and the
 * optional insurance-claim details. The one schema that checks a submission against them is
 * lib/contact-schema.ts, kept apart because it carries zod: the form loads it when a visitor starts
 * on it, not with the page. Every number of an enquiry (lengths, photos, sizes, rates, slots) is in
 * lib/enquiry-rules.mjs; the messages a visitor reads are in content/contact.ts.
 */
import {
  CLAIM_ROLES,
  DAMAGE_TYPES,
  DESKTOP_ANSWERS,
  INSTRUCTING_ROLES,
  URGENCY_ANSWERS,
  VAT_ANSWERS,
  urgencyReasonText,
} from '@/content/contact';
import { CLAIM_MAX } from '@/lib/enquiry-rules.mjs';
import { plainText } from '@/lib/plain-text';

// Fields

export const CONTACT_FIELDS = ['name', 'email', 'phone', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** The three urgency questions, asked of every claim. */
export const URGENCY_FIELDS = ['worsening', 'habitable', 'vulnerable'] as const;
type UrgencyField = (typeof URGENCY_FIELDS)[number];

/**
 * What an insurer or a loss adjuster is asked besides (INSTRUCTING_ROLES): the policyholder, the
 * property and the policy. They count only when such a role is chosen; the property's postcode is the
 * claim's own field, required then.
 */
export const INSTRUCTION_FIELDS = [
  'policyholderName',
  'policyholderPhone',
  'propertyAddress',
  'vatRegistered',
  'excess',
  'desktopAssessment',
] as const;

/**
 * What would help us work with the person (access needs, someone to speak to for them, times not to
 * call) and whether they would rather not be phoned. Asked in the claim part, so read only while its box
 * is ticked, but about the person rather than the claim: they do not make an enquiry a claim (hasClaim).
 */
export const SUPPORT_FIELDS = ['noPhoneCalls', 'supportNeeds'] as const;
type SupportField = (typeof SUPPORT_FIELDS)[number];

/** What a ticked checkbox posts, and what is stored for it; an unticked one posts nothing. */
export const TICKED = 'yes';

/** Every claim field in its order on the page. */
export const CLAIM_FIELDS = [
  ...URGENCY_FIELDS,
  'claimRole',
  'insurer',
  'claimReference',
  'damageDate',
  'damageType',
  'policyholderName',
  'policyholderPhone',
  'propertyAddress',
  'postcode',
  'vatRegistered',
  'excess',
  'desktopAssessment',
  ...SUPPORT_FIELDS,
] as const;
export type ClaimField = (typeof CLAIM_FIELDS)[number];

/**
 * Every field a visitor types or answers, in page order: the one flat shape of an enquiry's text, from
 * the form's state and its draft to the stored row (whose columns have the same names). The claim, its
 * urgency, an insurer's instruction and the support needs are views of it (CLAIM_FIELDS, URGENCY_FIELDS,
 * INSTRUCTION_FIELDS, SUPPORT_FIELDS).
 */
export const ENQUIRY_FIELDS = [...CONTACT_FIELDS, ...CLAIM_FIELDS] as const;
export type EnquiryField = (typeof ENQUIRY_FIELDS)[number];
export type EnquiryFields = Record<EnquiryField, string>;
export const EMPTY_FIELDS: EnquiryFields = Object.fromEntries(ENQUIRY_FIELDS.map((field) => [field, ''])) as EnquiryFields;

export const PHOTO_FIELD = 'photos';

/** The hidden field people never see; a bot that fills it is answered normally and kept as spam. */
export const HONEYPOT_FIELD = 'website';

/** Every field of the form in its order on the page: the five message fields, then the optional claim details and photos. */
export const FORM_FIELDS = [...ENQUIRY_FIELDS, PHOTO_FIELD] as const;
export type FormField = (typeof FORM_FIELDS)[number];
export type FormErrors = Partial<Record<FormField, string>>;

const isOneOf =
  <T extends string>(list: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (list as readonly string[]).includes(value);
export const isClaimField = isOneOf(CLAIM_FIELDS);
export const isEnquiryField = isOneOf(ENQUIRY_FIELDS);
export const isFormField = isOneOf(FORM_FIELDS);
const isSupportField = isOneOf(SUPPORT_FIELDS);

/** Whether any of the claim's own fields was answered (the support needs are not the claim's). */
export const hasClaim = (fields: Partial<Record<ClaimField, string | null>>) =>
  CLAIM_FIELDS.some((field) => !isSupportField(field) && Boolean(fields[field]));

/** Whether the person told us anything that would help us work with them. */
export const hasSupportNeeds = (fields: Partial<Record<SupportField, string | null>>) =>
  SUPPORT_FIELDS.some((field) => Boolean(fields[field]));

// Photos: their number and sizes are in lib/enquiry-rules.mjs.

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

const valuesOf = (list: readonly { value: string }[]) => list.map((item) => item.value);
export const isUrgencyAnswer = isOneOf(valuesOf(URGENCY_ANSWERS));
export const isVatAnswer = isOneOf(valuesOf(VAT_ANSWERS));
export const isDesktopAnswer = isOneOf(valuesOf(DESKTOP_ANSWERS));
const labelOf = (list: readonly { value: string; label: string }[]) => (value: string | null | undefined) =>
  list.find((item) => item.value === value)?.label ?? '';
export const urgencyAnswerLabel = labelOf(URGENCY_ANSWERS);
export const vatAnswerLabel = labelOf(VAT_ANSWERS);
export const desktopAnswerLabel = labelOf(DESKTOP_ANSWERS);

/** Whether the role instructs us on a policyholder's behalf (the form then asks for the instruction). */
export const isInstructingRole = (value: string | null | undefined): boolean =>
  (INSTRUCTING_ROLES as readonly string[]).includes(value ?? '');

/**
 * Why an enquiry is urgent, one reason per answer that makes it so: damage still getting worse, nobody
 * able to stay in the home tonight, someone there at particular risk. Empty when it is not urgent.
 */
export function urgencyReasons(answers: Partial<Record<UrgencyField, string | null>> | null): string[] {
  if (!answers) return [];
  const reasons: string[] = [];
  if (answers.worsening === 'yes') reasons.push(urgencyReasonText.worsening);
  if (answers.habitable === 'no') reasons.push(urgencyReasonText.habitable);
  if (answers.vulnerable === 'yes') reasons.push(urgencyReasonText.vulnerable);
  return reasons;
}

export const isUrgent = (answers: Partial<Record<UrgencyField, string | null>> | null) => urgencyReasons(answers).length > 0;

/**
 * A telephone number as people write one: digits with spaces, brackets, dashes and a leading +, 7 to
 * 15 digits in all. Linear: one character class.
 */
const PHONE_CHARACTERS = /^\+?[0-9 ()-]+$/;
export function isTelephoneNumber(value: string): boolean {
  if (value.length > CLAIM_MAX.policyholderPhone || !PHONE_CHARACTERS.test(value)) return false;
  const digits = value.replace(/[^0-9]/g, '').length;
  return digits >= 7 && digits <= 15;
}

const AMOUNT = /^[0-9]{1,7}(?:\.[0-9]{1,2})?$/;

/**
 * An excess as stored: `250`, `£1,000`, ` £ 250.5 ` → `£250`, `£1,000`, `£250.50`; anything that is not
 * an amount of pounds is returned trimmed, to be refused (isExcess).
 */
export function normaliseExcess(value: string): string {
  const bare = value.replace(/^£/, '').replace(/[\s,]/g, '');
  if (!AMOUNT.test(bare)) return value.trim();
  const [pounds, pence] = bare.split('.');
  const whole = Number(pounds).toLocaleString('en-GB');
  return pence === undefined ? `£${whole}` : `£${whole}.${pence.padEnd(2, '0')}`;
}

export const isExcess = (normalised: string) => /^£[0-9][0-9,]*(?:\.[0-9]{2})?$/.test(normalised) && normalised.length <= CLAIM_MAX.excess;

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

let ukDateFormat: Intl.DateTimeFormat | undefined;

/** Today's date in Scotland, YYYY-MM-DD: the latest date of damage a visitor can give. */
export function todayInUk(now: Date = new Date()): string {
  // Made once: a formatter for a time zone loads that zone's rules, tens of milliseconds on a phone.
  ukDateFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
  return ukDateFormat.format(now);
}
