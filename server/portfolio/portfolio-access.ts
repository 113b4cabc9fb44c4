import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import { organisationPeople, organisations, portfolioAccessLog, siteSecrets, PORTFOLIO_ACTIONS } from '@/server/base/db-schema';

/**
 * Who may see an organisation's portfolio. Each person given a link has a row (organisation_people);
 * their link is `<person id>.<HMAC>` and the cookie it is traded for `<person id>.<another HMAC>`, both
 * over the person's and the organisation's link keys under the site's `portfolio-links` secret. So a
 * new person key ends one person's link and pages (a leaver), a new organisation key ends all of them
 * (`--revoke`), and a new secret every portfolio link at once. Both work for PORTFOLIO_LINK_DAYS after
 * the person last used either; each use moves that on. Neither carries anything but the person's id.
 */
export const PORTFOLIO_LINK_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;
const SECRET_NAME = 'portfolio-links';
const MAC_CHARACTERS = 32;
const VALUE_PATTERN = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{32})$/;

/** The cookie a portfolio link is traded for. Path / : the claim status pages it links to open with it too. */
export const PORTFOLIO_COOKIE = 'portfolio';

export type PortfolioAction = (typeof PORTFOLIO_ACTIONS)[number];

/** A person whose link or cookie works, and the organisation whose claims they see. */
export type PortfolioViewer = { personId: number; organisationId: number; organisationName: string; email: string | null };

export const newLinkKey = () => randomBytes(24).toString('base64url');

async function secretOf(db: Client): Promise<Buffer> {
  const [row] = await orm(db).select({ value: siteSecrets.value }).from(siteSecrets).where(eq(siteSecrets.name, SECRET_NAME));
  if (!row) throw new Error('The portfolio links secret is missing from the database (migration 0026 makes it).');
  return row.value;
}

type PersonRow = PortfolioViewer & {
  personKey: string;
  organisationKey: string;
  lastUsedMs: number | null;
  createdMs: number;
  revokedMs: number | null;
};

async function personRow(db: Client, personId: number): Promise<PersonRow | null> {
  const [row] = await orm(db)
    .select({
      personId: organisationPeople.id,
      organisationId: organisationPeople.organisationId,
      organisationName: organisations.name,
      email: organisationPeople.email,
      personKey: organisationPeople.linkKey,
      organisationKey: organisations.linkKey,
      lastUsedMs: organisationPeople.lastUsedMs,
      createdMs: organisationPeople.createdMs,
      revokedMs: organisationPeople.revokedMs,
    })
    .from(organisationPeople)
    .innerJoin(organisations, eq(organisations.id, organisationPeople.organisationId))
    .where(eq(organisationPeople.id, personId));
  return row ?? null;
}

const macOf = (secret: Buffer, kind: 'link' | 'session', person: PersonRow) =>
  createHmac('sha256', secret)
    .update(`portfolio-${kind}:${person.personId}:${person.organisationId}:${person.organisationKey}:${person.personKey}`)
    .digest('base64url')
    .slice(0, MAC_CHARACTERS);

/** When a person's link and cookie stop working unless used again first. */
export const portfolioLinkExpiresAt = (person: { lastUsedMs: number | null; createdMs: number }) =>
  (person.lastUsedMs ?? person.createdMs) + PORTFOLIO_LINK_DAYS * DAY_MS;

const viewerOf = (row: PersonRow): PortfolioViewer => ({
  personId: row.personId,
  organisationId: row.organisationId,
  organisationName: row.organisationName,
  email: row.email,
});

async function verified(db: Client, kind: 'link' | 'session', value: string | undefined, now: number): Promise<PortfolioViewer | null> {
  const match = VALUE_PATTERN.exec(value ?? '');
  if (!match) return null;
  const row = await personRow(db, Number(match[1]));
  if (!row || row.revokedMs !== null || !(now < portfolioLinkExpiresAt(row))) return null;
  const expected = Buffer.from(macOf(await secretOf(db), kind, row));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? viewerOf(row) : null;
}

/** The link token of a person, or null when there is no such person. */
export async function portfolioLinkToken(db: Client, personId: number): Promise<string | null> {
  const row = await personRow(db, personId);
  return row ? `${row.personId}.${macOf(await secretOf(db), 'link', row)}` : null;
}

/** The cookie's value a person's link is traded for, or null when there is no such person. */
export async function portfolioSessionValue(db: Client, personId: number): Promise<string | null> {
  const row = await personRow(db, personId);
  return row ? `${row.personId}.${macOf(await secretOf(db), 'session', row)}` : null;
}

/** The person a link token opens the portfolio for at `now`, or null (malformed, forged, revoked, expired). */
export const viewerOfLinkToken = (db: Client, token: string, now: number) => verified(db, 'link', token, now);

/** The person a cookie's value opens the portfolio for at `now`, or null. */
export const viewerOfSession = (db: Client, value: string | undefined, now: number) => verified(db, 'session', value, now);

/** A use of the link or the page: both work PORTFOLIO_LINK_DAYS from now. */
export async function markPortfolioUse(db: Client, personId: number, now: number): Promise<void> {
  await orm(db).update(organisationPeople).set({ lastUsedMs: now }).where(eq(organisationPeople.id, personId));
}

/** Keeps who did what with an organisation's portfolio; never fails the page it is on. */
export async function logPortfolioAccess(
  db: Client,
  entry: { organisationId: number; personId: number | null; action: PortfolioAction; detail?: string; now: number },
): Promise<void> {
  try {
    await orm(db)
      .insert(portfolioAccessLog)
      .values({
        organisationId: entry.organisationId,
        personId: entry.personId,
        action: entry.action,
        detail: entry.detail ?? null,
        atMs: entry.now,
      });
  } catch (error) {
    console.error('[portfolio] Could not keep a use of a portfolio:', error instanceof Error ? error.message : error);
  }
}
