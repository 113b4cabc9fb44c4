/**
 * The one schema of "Your claims with us" (/insurers): one e-mail address, checked by the form before
 * it is sent and by the server (server/portfolio/link-request.ts) with the same rules and words.
 */
import * as z from 'zod/mini';
import { portfolioRequestText as text } from '@/content/portfolio-request';
import { EMAIL_PATTERN, normaliseContactText } from '@/lib/contact-fields';
import { LINK_REQUEST_EMAIL_MAX } from '@/lib/portfolio/link-request-state';

export { LINK_REQUEST_EMAIL_MAX, LINK_REQUEST_FIELD, type LinkRequestState } from '@/lib/portfolio/link-request-state';

/**
 * Whether Unicode folding leaves the address as it is, case apart: no `ſ` that compares as `s`, no
 * full-width letter that compares as a plain one. Addresses are compared folded (server/base/email-key.ts),
 * so one that folding changes could ask in another's name.
 */
export function foldsToItself(address: string): boolean {
  const lower = address.normalize('NFC').toLowerCase();
  return address.normalize('NFKC') === address.normalize('NFC') && lower.toUpperCase().toLowerCase().normalize('NFC') === lower;
}

export const linkRequestSchema = z.object({
  email: z.pipe(
    z.transform((raw: unknown) => (typeof raw === 'string' ? normaliseContactText(raw, false) : '')),
    // The cap aborts before the pattern, so no pattern runs over a long string.
    z
      .string()
      .check(
        z.maxLength(LINK_REQUEST_EMAIL_MAX, { message: text.tooLong, abort: true }),
        z.regex(EMAIL_PATTERN, { message: text.invalid, abort: true }),
        z.refine(foldsToItself, text.folded),
      ),
  ),
});

/** The address asked with, or the field's error. */
export function parseLinkRequest(input: { email: unknown }): { ok: true; email: string } | { ok: false; error: string } {
  const parsed = linkRequestSchema.safeParse(input);
  if (parsed.success) return { ok: true, email: parsed.data.email };
  return { ok: false, error: parsed.error.issues[0]?.message ?? text.invalid };
}
