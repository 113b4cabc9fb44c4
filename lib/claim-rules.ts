/**
 * The optional insurance-claim details of an enquiry: the fields, their normalisation and
 * the checks the one contact schema (lib/contact-schema.ts) applies on the form and on the server.
 */
import { CLAIM_MAX, CLAIM_MESSAGES, CLAIM_ROLES, DAMAGE_TYPES } from '@/content/contact';

export { CLAIM_MAX, CLAIM_MESSAGES, CLAIM_ROLES, DAMAGE_TYPES };

export const CLAIM_FIELDS = ['claimRole', 'insurer', 'claimReference', 'damageDate', 'damageType', 'postcode'] as const;
export type ClaimField = (typeof CLAIM_FIELDS)[number];
export type ClaimValues = Record<ClaimField, string>;

export const EMPTY_CLAIM: ClaimValues = { claimRole: '', insurer: '', claimReference: '', damageDate: '', damageType: '', postcode: '' };

export const isClaimField = (value: unknown): value is ClaimField =>
  typeof value === 'string' && (CLAIM_FIELDS as readonly string[]).includes(value);

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
