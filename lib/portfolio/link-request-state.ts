/** The field of "Your claims with us" and what its form shows, without the schema (which the form loads on first use). */

/** The longest address SMTP carries (RFC 5321's path limit less its brackets). */
export const LINK_REQUEST_EMAIL_MAX = 254;
export const LINK_REQUEST_FIELD = 'email';

/**
 * What the form shows: nothing yet; the one answer every valid address gets; or why not (a field's
 * error, the client's budget, the site unavailable) with what was typed.
 */
export type LinkRequestState =
  { kind: 'idle' } | { kind: 'answered' } | { kind: 'refused'; message: string; fieldError?: string; email: string };
