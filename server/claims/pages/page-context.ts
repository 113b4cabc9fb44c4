import 'server-only';
import type { Client } from '@libsql/client';
import { randomBytes } from 'node:crypto';
import { wallClock } from '@/lib/zone-clock';
import { claimOfSession, type ClaimLinkPurpose } from '@/server/claims/claim-links';

/** What every part of the claim pages works with: the database, the clock, whether the CRM is told. */
export type ClaimPageContext = {
  db: () => Promise<Client>;
  now: () => number;
  /** Whether a change saved here is told to the company's CRM, read when the change is saved. */
  tellCrm: () => boolean;
};

/** The claim a page's cookie opens, or null when the cookie does not open this claim's page. */
export const claimOfPage = (
  ctx: ClaimPageContext,
  client: Client,
  purpose: ClaimLinkPurpose,
  reference: string,
  session: string | undefined,
) => claimOfSession(client, purpose, reference, session, ctx.now());

/** A new form token for the staff page's Save: single use, recorded with the change it saved. */
export const newFormToken = () => randomBytes(18).toString('base64url');
export const FORM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;

/** A stored time on the London clock: "14:02". */
export const londonTime = (iso: string) => {
  const clock = wallClock(Date.parse(iso), 'Europe/London');
  return `${String(clock.hour).padStart(2, '0')}:${String(clock.minute).padStart(2, '0')}`;
};
const DAY_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});
/** A stored time as a day and time on the London clock: "3 Dec, 10:00". */
export const londonDayTime = (iso: string) => DAY_TIME.format(new Date(iso));

export const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
