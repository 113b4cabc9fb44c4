/**
 * The one schema of "Your claims with us" (/insurers): one e-mail address, checked by the form before
 * it is sent and by the server (server/portfolio/link-request.ts) with the same rules and words.
 */
import * as z from 'zod/mini';
import { portfolioRequestText as text } from '@/content/portfolio-request';
import { EMAIL_PATTERN, normaliseContactText } from '@/lib/contact-fields';

/** The longest address SMTP carries (RFC 5321's path limit less its brackets). */
export const LINK_REQUEST_EMAIL_MAX = 254;
export const LINK_REQUEST_FIELD = 'email';

export const linkRequestSchema = z.object({
  email: z.pipe(
    z.transform((raw: unknown) => (typeof raw === 'string' ? normaliseContactText(raw, false) : '')),
    // The cap aborts before the pattern, so no pattern runs over a long string.
    z.string().check(z.maxLength(LINK_REQUEST_EMAIL_MAX, { message: text.tooLong, abort: true }), z.regex(EMAIL_PATTERN, text.invalid)),
  ),
});

/** The address asked with, or the field's error. */
export function parseLinkRequest(input: { email: unknown }): { ok: true; email: string } | { ok: false; error: string } {
  const parsed = linkRequestSchema.safeParse(input);
  if (parsed.success) return { ok: true, email: parsed.data.email };
  return { ok: false, error: parsed.error.issues[0]?.message ?? text.invalid };
}

/**
 * What the form shows: nothing yet; the one answer every valid address gets; or why not (a field's
 * error, the client's budget, the site unavailable) with what was typed.
 */
export type LinkRequestState =
  { kind: 'idle' } | { kind: 'answered' } | { kind: 'refused'; message: string; fieldError?: string; email: string };
