import 'server-only';
import type { Client } from '@libsql/client';
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  allowanceCode,
  allowanceWords,
  parseStandard,
  STANDARD_KEYS,
  STANDARD_MEASURES,
  readStoredStandards,
  type OrganisationStandards,
} from '@/lib/portfolio/standards';
import type { ResponseStandards } from '@/lib/insurer-times';
import { heldStandards } from '@/lib/portfolio/standing';
import { orm, writeBatch } from '@/server/base/db';
import {
  enquiries,
  organisationDomains,
  organisationPeople,
  organisations,
  portfolioAccessLog,
  portfolioLinkMails,
  portfolioLinks,
  portfolioSessions,
} from '@/server/base/db-schema';
import { emailKey } from '@/server/base/email-key';
import { domainOfAddress } from '@/server/ledger/instructing-organisation';
import { personFor } from '@/server/portfolio/people';
import {
  endAccessOf,
  endAddressLinksOf,
  logPortfolioAccess,
  newPortfolioLink,
  PORTFOLIO_SESSION_DAYS,
} from '@/server/portfolio/portfolio-access';

/**
 * The instructing organisations as the operator keeps them (`npm run insurers`): registered by name with
 * the e-mail domains their instructions come from and their own response standards; the links printed
 * for them; and the revocations that end those links. Each function answers with what it did, or
 * `{ error }` in words the operator reads.
 */

export type Failure = { error: string };
export const isFailure = (value: unknown): value is Failure => typeof value === 'object' && value !== null && 'error' in value;

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const NAME_MAX = 120;

/** A domain as typed: lower-case, no trailing dot; or why it is not one. */
export function parseDomain(text: string): string | Failure {
  const domain = text.trim().toLowerCase().replace(/\.$/, '');
  if (domain.includes('@')) return { error: `"${text}" is an address: give its domain (${domainOfAddress(domain) ?? 'after the @'}).` };
  if (!DOMAIN_PATTERN.test(domain)) return { error: `"${text}" is not an e-mail domain (such as adjusters.example.co.uk).` };
  return domain;
}

/** The `--standard`s of one command as the organisation's own standards (null: none given); a standard given twice is refused. */
export function parseStandards(texts: readonly string[]): OrganisationStandards | null | Failure {
  if (texts.length === 0) return null;
  const own: OrganisationStandards = {};
  for (const text of texts) {
    const parsed = parseStandard(text);
    if ('error' in parsed) return parsed;
    if (own[parsed.key]) return { error: `The ${parsed.key} standard is given twice: give each of contact, survey and report once.` };
    own[parsed.key] = parsed.allowance;
  }
  return own;
}

/** One standard in force, in words, and whether it is the organisation's own or the company's published one. */
export type StandardInForce = { key: (typeof STANDARD_KEYS)[number]; code: string; words: string; own: boolean };

export type Organisation = {
  id: number;
  name: string;
  domains: string[];
  /** Its own standards as stored (null: none of its own); what it is held to is `standardsInForce`. */
  ownStandards: OrganisationStandards | null;
};

/**
 * The standards an organisation is held to, as its portfolio and the digest judge it: its own where
 * given, the company's published ones for the rest once the company has confirmed them. A measure with
 * neither is absent: nothing is judged against a placeholder.
 */
export function standardsInForce(own: OrganisationStandards | null, company: ResponseStandards): StandardInForce[] {
  const held = heldStandards(own, company);
  return STANDARD_KEYS.flatMap((key) => {
    const allowance = held[key];
    return allowance ? [{ key, code: allowanceCode(allowance), words: allowanceWords(allowance), own: own?.[key] !== undefined }] : [];
  });
}

async function domainsOf(db: Client, organisationId: number): Promise<string[]> {
  const rows = await orm(db)
    .select({ domain: organisationDomains.domain })
    .from(organisationDomains)
    .where(eq(organisationDomains.organisationId, organisationId))
    .orderBy(asc(organisationDomains.domain));
  return rows.map((row) => row.domain);
}

async function organisationOfRow(db: Client, row: { id: number; name: string; standards: string | null }): Promise<Organisation> {
  return {
    id: row.id,
    name: row.name,
    domains: await domainsOf(db, row.id),
    ownStandards: readStoredStandards(row.standards),
  };
}

const organisationColumns = { id: organisations.id, name: organisations.name, standards: organisations.standards };

/** The organisation a domain is registered to, or a failure naming the domain. */
export async function organisationOfDomain(db: Client, given: string): Promise<Organisation | Failure> {
  const domain = parseDomain(given);
  if (isFailure(domain)) return domain;
  const [row] = await orm(db)
    .select(organisationColumns)
    .from(organisationDomains)
    .innerJoin(organisations, eq(organisations.id, organisationDomains.organisationId))
    .where(eq(organisationDomains.domain, domain));
  if (!row) return { error: `No organisation is registered for ${domain} (npm run insurers -- --list shows them).` };
  return organisationOfRow(db, row);
}

export type Registration = {
  name: string;
  /** As typed: each checked by parseDomain. */
  domains: readonly string[];
  /** As typed (`contact=2h`…): each checked by parseStandard. */
  standards: readonly string[];
};

/**
 * Registers an organisation, or updates the one of that name: its domains and its own standards become
 * exactly those given (none given: the company's published ones), and a domain dropped no longer
 * assigns new claims (claims already assigned stay). The people at a dropped domain lose their access:
 * their sessions and unopened links end (`ended` says whose). A domain another organisation has is refused.
 */
export async function registerOrganisation(
  db: Client,
  registration: Registration,
  now: number,
): Promise<(Organisation & { created: boolean; dropped: string[]; ended: EndedLink[] }) | Failure> {
  const name = registration.name.trim().replace(/\s+/g, ' ');
  if (!name || name.length > NAME_MAX) return { error: `An organisation's name is 1 to ${NAME_MAX} characters.` };
  const domains = registration.domains.map(parseDomain);
  const refused = domains.find(isFailure);
  if (refused) return refused;
  if (domains.length === 0) return { error: 'Give at least one --domain its instructions come from.' };
  const own = parseStandards(registration.standards);
  if (isFailure(own)) return own;
  const wanted = [...new Set(domains as string[])];

  const [existing] = await orm(db).select(organisationColumns).from(organisations).where(eq(organisations.name, name));
  const taken = await orm(db)
    .select({ domain: organisationDomains.domain, name: organisations.name, id: organisations.id })
    .from(organisationDomains)
    .innerJoin(organisations, eq(organisations.id, organisationDomains.organisationId))
    .where(inArray(organisationDomains.domain, wanted));
  const others = taken.find((row) => row.id !== existing?.id);
  if (others) return { error: `${others.domain} is already a domain of ${others.name}: an e-mail domain belongs to one organisation.` };

  const standards = own === null ? null : JSON.stringify(own);
  const id = existing?.id ?? (await insertOrganisation(db, name, standards, now));
  const before = await domainsOf(db, id);
  await writeBatch(db, [
    orm(db).update(organisations).set({ standards, updatedMs: now }).where(eq(organisations.id, id)),
    orm(db).delete(organisationDomains).where(eq(organisationDomains.organisationId, id)),
    orm(db)
      .insert(organisationDomains)
      .values(wanted.map((domain) => ({ domain, organisationId: id }))),
  ]);
  const dropped = before.filter((domain) => !wanted.includes(domain));
  const atDropped = (
    await orm(db)
      .select({ id: organisationPeople.id, email: organisationPeople.email, lastUsedMs: organisationPeople.lastUsedMs })
      .from(organisationPeople)
      .where(and(eq(organisationPeople.organisationId, id), isNull(organisationPeople.revokedMs)))
      .orderBy(asc(organisationPeople.id))
  ).filter((person) => person.email !== null && dropped.includes(domainOfAddress(person.email) ?? ''));
  if (atDropped.length > 0)
    await writeBatch(db, [
      ...endAccessOf(
        db,
        atDropped.map((person) => person.id),
      ),
    ]);
  const registered = await organisationOfRow(db, { id, name, standards });
  return { ...registered, created: !existing, dropped, ended: atDropped.map(({ email, lastUsedMs }) => ({ email, lastUsedMs })) };
}

async function insertOrganisation(db: Client, name: string, standards: string | null, now: number): Promise<number> {
  const [row] = await orm(db)
    .insert(organisations)
    .values({ name, standards, createdMs: now, updatedMs: now })
    .returning({ id: organisations.id });
  return row!.id;
}

export type OrganisationListing = Organisation & { claims: number; people: number };

/** Every organisation by name, with how many claims it has sent and how many people hold a link that works. */
export async function listOrganisations(db: Client): Promise<OrganisationListing[]> {
  const rows = await orm(db)
    .select({
      ...organisationColumns,
      // Written out: drizzle names a column inside sql`` without its table, which a subquery would take as its own.
      claims: sql<number>`(SELECT count(*) FROM enquiries AS e WHERE e.organisation_id = organisations.id)`,
      people: sql<number>`(SELECT count(*) FROM organisation_people AS p WHERE p.organisation_id = organisations.id AND p.revoked_ms IS NULL)`,
    })
    .from(organisations)
    .orderBy(asc(organisations.name));
  return Promise.all(
    rows.map(async ({ claims, people, ...row }) => ({
      ...(await organisationOfRow(db, row)),
      claims: Number(claims),
      people: Number(people),
    })),
  );
}

/**
 * A portfolio link of the organisation a domain is registered to: for `address` (one of its domains),
 * that person's own; without, a link for the office. Logged as sent. Its token, to print after SITE_URL.
 */
export async function linkFor(
  db: Client,
  domain: string,
  address: string | null,
  now: number,
): Promise<{ organisation: Organisation; token: string } | Failure> {
  const organisation = await organisationOfDomain(db, domain);
  if (isFailure(organisation)) return organisation;
  if (address !== null) {
    const at = domainOfAddress(address);
    if (at === null || !address.slice(0, address.lastIndexOf('@')).trim()) return { error: `"${address}" is not an e-mail address.` };
    if (!organisation.domains.includes(at))
      return { error: `${address.trim()} is not at a domain of ${organisation.name} (${organisation.domains.join(', ')}).` };
  }
  if (await isSuspended(db, organisation.id))
    return { error: `${organisation.name} is suspended: no link of it opens. Switch it on first with --resume ${domain.trim()}.` };
  const personId = (await personFor(db, organisation.id, address, now, 'operator'))!;
  const token = await newPortfolioLink(db, personId, now);
  await logPortfolioAccess(db, { organisationId: organisation.id, personId, action: 'link-sent', detail: 'printed by the operator', now });
  return { organisation, token };
}

/** Someone whose link a revocation ended: their address (null for an office link) and when they last used it. */
export type EndedLink = { email: string | null; lastUsedMs: number | null };

/**
 * Ends every portfolio link and open page of the organisation a domain is registered to (their
 * sessions and unopened links) and marks each person revoked; `--link` gives any of them a new one.
 */
export async function revokeOrganisation(
  db: Client,
  domain: string,
  now: number,
): Promise<{ organisation: Organisation; ended: EndedLink[] } | Failure> {
  const organisation = await organisationOfDomain(db, domain);
  if (isFailure(organisation)) return organisation;
  const live = and(eq(organisationPeople.organisationId, organisation.id), isNull(organisationPeople.revokedMs));
  const ended = await orm(db)
    .select({ email: organisationPeople.email, lastUsedMs: organisationPeople.lastUsedMs })
    .from(organisationPeople)
    .where(live)
    .orderBy(asc(organisationPeople.id));
  const people = await orm(db)
    .select({ id: organisationPeople.id })
    .from(organisationPeople)
    .where(eq(organisationPeople.organisationId, organisation.id));
  await writeBatch(db, [
    orm(db).update(organisationPeople).set({ revokedMs: now }).where(live),
    endAddressLinksOf(db, organisation.id),
    ...endAccessOf(
      db,
      people.map((person) => person.id),
    ),
  ]);
  await logPortfolioAccess(db, {
    organisationId: organisation.id,
    personId: null,
    action: 'revoked',
    detail: `every link (${ended.length} ${ended.length === 1 ? 'person' : 'people'})`,
    now,
  });
  return { organisation, ended };
}

/** Whether the organisation is suspended (`--suspend`): none of its links opens and none can be asked for. */
export async function isSuspended(db: Client, organisationId: number): Promise<boolean> {
  const [row] = await orm(db)
    .select({ suspendedMs: organisations.suspendedMs })
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  return row?.suspendedMs != null;
}

/**
 * Suspends the organisation a domain is registered to: every session and unopened link of its people
 * ends at once, and until it is resumed none opens and none can be asked for (a request answers as for
 * an unknown domain). Its people stay, so `--resume` lets them ask again.
 */
export async function suspendOrganisation(
  db: Client,
  domain: string,
  now: number,
): Promise<{ organisation: Organisation; ended: EndedLink[] } | Failure> {
  const organisation = await organisationOfDomain(db, domain);
  if (isFailure(organisation)) return organisation;
  if (await isSuspended(db, organisation.id)) return { error: `${organisation.name} is already suspended.` };
  const people = await orm(db)
    .select({ id: organisationPeople.id, email: organisationPeople.email, lastUsedMs: organisationPeople.lastUsedMs })
    .from(organisationPeople)
    .where(and(eq(organisationPeople.organisationId, organisation.id), isNull(organisationPeople.revokedMs)))
    .orderBy(asc(organisationPeople.id));
  await writeBatch(db, [
    orm(db).update(organisations).set({ suspendedMs: now, updatedMs: now }).where(eq(organisations.id, organisation.id)),
    endAddressLinksOf(db, organisation.id),
    ...endAccessOf(
      db,
      people.map((person) => person.id),
    ),
  ]);
  await logPortfolioAccess(db, { organisationId: organisation.id, personId: null, action: 'revoked', detail: 'suspended', now });
  return { organisation, ended: people.map(({ email, lastUsedMs }) => ({ email, lastUsedMs })) };
}

/** Resumes a suspended organisation: its people can ask for links again (every session ended with the suspension). */
export async function resumeOrganisation(db: Client, domain: string, now: number): Promise<{ organisation: Organisation } | Failure> {
  const organisation = await organisationOfDomain(db, domain);
  if (isFailure(organisation)) return organisation;
  await orm(db).update(organisations).set({ suspendedMs: null, updatedMs: now }).where(eq(organisations.id, organisation.id));
  return { organisation };
}

/**
 * Takes the organisation a domain is registered to away, with its domains, its people (their links,
 * sessions and link e-mails) and its access log. Its claims stay, as claims no organisation sees.
 */
export async function removeOrganisation(db: Client, domain: string): Promise<{ organisation: Organisation; claims: number } | Failure> {
  const organisation = await organisationOfDomain(db, domain);
  if (isFailure(organisation)) return organisation;
  const id = organisation.id;
  const [unassigned] = await writeBatch(db, [
    orm(db).update(enquiries).set({ organisationId: null }).where(eq(enquiries.organisationId, id)),
    orm(db).update(enquiries).set({ claimedOrganisationId: null }).where(eq(enquiries.claimedOrganisationId, id)),
    orm(db).delete(portfolioAccessLog).where(eq(portfolioAccessLog.organisationId, id)),
    orm(db).delete(portfolioLinkMails).where(eq(portfolioLinkMails.organisationId, id)),
    orm(db).delete(portfolioLinks).where(eq(portfolioLinks.organisationId, id)),
    orm(db).delete(organisationPeople).where(eq(organisationPeople.organisationId, id)),
    orm(db).delete(organisationDomains).where(eq(organisationDomains.organisationId, id)),
    orm(db).delete(organisations).where(eq(organisations.id, id)),
  ]);
  return { organisation, claims: unassigned?.rowsAffected ?? 0 };
}

/** Ends the portfolio link and open pages of one address (a leaver), at every organisation it was given one by. */
export async function revokeAddress(db: Client, address: string, now: number): Promise<{ organisations: string[] } | Failure> {
  const key = emailKey(address);
  // A link e-mailed and not yet opened has no person yet: one is made, to stay revoked.
  const waiting = await orm(db)
    .selectDistinct({ organisationId: portfolioLinks.organisationId })
    .from(portfolioLinks)
    .where(and(eq(portfolioLinks.emailKey, key), isNull(portfolioLinks.personId), isNull(portfolioLinks.usedMs)));
  for (const { organisationId } of waiting) await personFor(db, organisationId, address, now, 'self-service');
  const people = await orm(db)
    .select({ id: organisationPeople.id, organisationId: organisationPeople.organisationId, name: organisations.name })
    .from(organisationPeople)
    .innerJoin(organisations, eq(organisations.id, organisationPeople.organisationId))
    .where(and(eq(organisationPeople.emailKey, key), isNull(organisationPeople.revokedMs)));
  if (people.length === 0) return { error: `No portfolio link of ${address.trim()} works now: there is nothing to end.` };
  const ids = people.map((person) => person.id);
  await writeBatch(db, [
    orm(db).update(organisationPeople).set({ revokedMs: now }).where(inArray(organisationPeople.id, ids)),
    ...endAccessOf(db, ids),
  ]);
  for (const person of people)
    await logPortfolioAccess(db, {
      organisationId: person.organisationId,
      personId: person.id,
      action: 'revoked',
      detail: 'this person',
      now,
    });
  return { organisations: people.map((person) => person.name) };
}

/** One use; `personId` null for the operator's own (a `--revoke`), `email` null for an office link. */
export type AccessEntry = { atMs: number; action: string; personId: number | null; email: string | null; detail: string | null };

/** Who did what with the portfolio of the organisation a domain is registered to, newest first. */
export async function accessLogOf(
  db: Client,
  domain: string,
  limit: number,
): Promise<{ organisation: Organisation; entries: AccessEntry[] } | Failure> {
  const organisation = await organisationOfDomain(db, domain);
  if (isFailure(organisation)) return organisation;
  const entries = await orm(db)
    .select({
      atMs: portfolioAccessLog.atMs,
      action: portfolioAccessLog.action,
      email: organisationPeople.email,
      personId: portfolioAccessLog.personId,
      detail: portfolioAccessLog.detail,
    })
    .from(portfolioAccessLog)
    .leftJoin(organisationPeople, eq(organisationPeople.id, portfolioAccessLog.personId))
    .where(eq(portfolioAccessLog.organisationId, organisation.id))
    .orderBy(desc(portfolioAccessLog.atMs), desc(portfolioAccessLog.id))
    .limit(limit);
  return { organisation, entries };
}

/** The live sessions of an organisation's people, newest first: when each began, was last used, its browser family and whose it is. */
export async function sessionsOfOrganisation(db: Client, organisationId: number, now: number) {
  const s = portfolioSessions;
  return orm(db)
    .select({ createdMs: s.createdMs, lastUsedMs: s.lastUsedMs, browser: s.browser, email: organisationPeople.email })
    .from(s)
    .innerJoin(organisationPeople, eq(organisationPeople.id, s.personId))
    .where(and(eq(organisationPeople.organisationId, organisationId), gt(s.lastUsedMs, now - PORTFOLIO_SESSION_DAYS * 24 * 60 * 60_000)))
    .orderBy(desc(s.createdMs), desc(s.id));
}

/** What a standard measures, in words for the operator. */
export const standardMeasureWords = (key: (typeof STANDARD_KEYS)[number]) =>
  `${STANDARD_MEASURES[key].from} to ${STANDARD_MEASURES[key].to}`;
