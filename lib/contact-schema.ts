import { z } from 'zod';
import {
  CONTACT_FIELDS,
  CONTACT_MAX,
  CONTACT_MESSAGES,
  CONTACT_MIN,
  EMAIL_PATTERN,
  HONEYPOT_FIELD,
  RECAPTCHA_TOKEN_MAX,
  isContactField,
  normaliseContactText,
  type ContactErrors,
  type ContactValues,
} from '@/lib/contact-rules';

/**
 * The contact message as the server accepts it (SPEC sections 3 and 5), built from the same rules and
 * messages as the browser's check in `lib/contact-rules.ts`. Values arrive normalised (NFC, no control
 * characters other than newlines, trimmed); anything that is not a string counts as empty.
 */
const text = (multiline: boolean) => (raw: unknown) => (typeof raw === 'string' ? normaliseContactText(raw, multiline) : '');

export const contactSchema = z.object({
  name: z.preprocess(text(false), z.string().min(CONTACT_MIN.name, CONTACT_MESSAGES.name).max(CONTACT_MAX.name, CONTACT_MESSAGES.nameMax)),
  email: z.preprocess(
    text(false),
    // The cap aborts before the pattern, so no pattern runs over a long string.
    z.string().max(CONTACT_MAX.email, { message: CONTACT_MESSAGES.emailMax, abort: true }).regex(EMAIL_PATTERN, CONTACT_MESSAGES.email),
  ),
  phone: z.preprocess(text(false), z.string().max(CONTACT_MAX.phone, CONTACT_MESSAGES.phoneMax)),
  subject: z.preprocess(
    text(false),
    z.string().min(CONTACT_MIN.subject, CONTACT_MESSAGES.subject).max(CONTACT_MAX.subject, CONTACT_MESSAGES.subjectMax),
  ),
  message: z.preprocess(
    text(true),
    z.string().min(CONTACT_MIN.message, CONTACT_MESSAGES.message).max(CONTACT_MAX.message, CONTACT_MESSAGES.messageMax),
  ),
  recaptchaToken: z.preprocess(
    (raw) => (typeof raw === 'string' ? raw.trim() : ''),
    z.string().max(RECAPTCHA_TOKEN_MAX, 'The reCAPTCHA token is not valid'),
  ),
  [HONEYPOT_FIELD]: z.preprocess((raw) => (typeof raw === 'string' ? raw.trim() : raw ? String(raw) : ''), z.string()),
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
  const order = (path: string) => (isContactField(path) ? CONTACT_FIELDS.indexOf(path) : CONTACT_FIELDS.length);
  const errors = [...byPath].map(([path, msg]) => ({ path, msg })).sort((a, b) => order(a.path) - order(b.path));
  return { success: false, errors };
}

/** The same result in the browser validator's shape, for comparing the two. */
export function schemaErrors(input: unknown): ContactErrors {
  const parsed = parseContact(input);
  if (parsed.success) return {};
  const errors: ContactErrors = {};
  for (const { path, msg } of parsed.errors) if (isContactField(path)) errors[path] = msg;
  return errors;
}

export const contactValues = (data: ContactSubmission): ContactValues => ({
  name: data.name,
  email: data.email,
  phone: data.phone,
  subject: data.subject,
  message: data.message,
});
