// What `npm run insurers` does with its arguments (scripts/insurers.ts runs it): parsed, run against
// server/portfolio/organisations.ts, and answered as lines to print with an exit code.
import { parseArgs } from 'node:util';
import type { Client } from '@libsql/client';
import { business } from '@/content/business';
import { config } from '@/server/base/config.mjs';
import { STANDARD_KEYS } from '@/lib/portfolio/standards';
import type { ResponseStandards } from '@/lib/insurer-times';
import { PORTFOLIO_LINK_HOURS, PORTFOLIO_SESSION_DAYS } from '@/server/portfolio/portfolio-access';
import {
  accessLogOf,
  isFailure,
  linkFor,
  listOrganisations,
  registerOrganisation,
  removeOrganisation,
  resumeOrganisation,
  revokeAddress,
  revokeOrganisation,
  sessionsOfOrganisation,
  suspendOrganisation,
  standardMeasureWords,
  standardsInForce,
  type AccessEntry,
  type EndedLink,
  type Organisation,
} from '@/server/portfolio/organisations';
import { oneLine, tableLines } from './listing-cli';
import { withDatabase, type CommandIo } from './command-io';

export const insurersUsage = `Usage: npm run insurers -- --add "NAME" --domain DOMAIN [--domain DOMAIN…] [--standard contact=2h…]
       npm run insurers -- --list
       npm run insurers -- --link DOMAIN [--address EMAIL]
       npm run insurers -- --revoke DOMAIN
       npm run insurers -- --revoke-address EMAIL
       npm run insurers -- --suspend DOMAIN | --resume DOMAIN | --remove DOMAIN
       npm run insurers -- --log DOMAIN [--limit N]
The insurers, loss adjusters and networks that instruct the company, in the database at DATABASE_URL
(default file:data/site.db). A claim is theirs when its instruction comes from an address at one of
their domains.
  --add NAME           register an organisation, or update the one of that name: its domains and
                       standards become those given (a domain of another organisation is refused)
  --domain DOMAIN      an e-mail domain its instructions come from (one or more)
  --standard KEY=TIME  its own response standard: contact, survey or report, in working hours (2h),
                       working days (3wd) or plain hours (48ph); without, the company's published ones
  --list               every organisation: domains, standards, claims and people with a link
  --link DOMAIN        print a portfolio link (for SITE_URL) for the office, or with --address for one
                       person at one of its domains; it opens once, within ${PORTFOLIO_LINK_HOURS} hours, and keeps that
                       browser signed in ${PORTFOLIO_SESSION_DAYS} days from its last use
  --revoke DOMAIN      end every portfolio link and open page of that organisation at once
  --revoke-address EMAIL
                       end one person's link and open pages (a leaver)
  --suspend DOMAIN     switch the organisation off: its links and open pages end at once, and no link
                       can be asked for (the request is answered as for an unknown domain)
  --resume DOMAIN      switch it on again: its people can ask for links again
  --remove DOMAIN      take the organisation away with its domains, people and access log; its claims stay
  --log DOMAIN         its open sessions (start, last use, browser), then who was sent, opened, viewed or
                       downloaded its portfolio, and when (newest first; --limit N, default 50)`;

/** What the command printed and its exit code: 0 done, 1 refused (an unknown domain…), 2 a usage error. */
export type CommandResult = { code: 0 | 1 | 2; out: string[]; err: string[] };

const usageError = (message: string): CommandResult => ({ code: 2, out: [], err: [message, '', insurersUsage] });
const refused = (message: string): CommandResult => ({ code: 1, out: [], err: [message] });
const done = (out: string[]): CommandResult => ({ code: 0, out, err: [] });

const OPTIONS = {
  add: { type: 'string' },
  domain: { type: 'string', multiple: true },
  standard: { type: 'string', multiple: true },
  list: { type: 'boolean' },
  link: { type: 'string' },
  address: { type: 'string' },
  revoke: { type: 'string' },
  'revoke-address': { type: 'string' },
  suspend: { type: 'string' },
  resume: { type: 'string' },
  remove: { type: 'string' },
  log: { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const COMMANDS = ['add', 'list', 'link', 'revoke', 'revoke-address', 'suspend', 'resume', 'remove', 'log'] as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; args: string[] }>>['values'];

/** Options that belong to one command only: given with another, they are a mistake, not ignored. */
const BELONGS_TO: Partial<Record<keyof Values, (typeof COMMANDS)[number]>> = {
  domain: 'add',
  standard: 'add',
  address: 'link',
  limit: 'log',
};

/** The command the arguments name, or the usage error. */
function commandOf(values: Values): (typeof COMMANDS)[number] | CommandResult {
  const chosen = COMMANDS.filter((command) => values[command] !== undefined && values[command] !== false);
  if (chosen.length !== 1)
    return usageError('Give one of --add, --list, --link, --revoke, --revoke-address, --suspend, --resume, --remove or --log.');
  const command = chosen[0]!;
  for (const [option, owner] of Object.entries(BELONGS_TO))
    if (values[option as keyof Values] !== undefined && owner !== command) return usageError(`--${option} goes with --${owner} only.`);
  return command;
}

/** `npm run insurers` with these arguments against the database at DATABASE_URL, now: printed to `io`, its exit code returned. */
export async function insurersMain(args: readonly string[], io: CommandIo): Promise<number> {
  const result = await withDatabase((db) =>
    runInsurersCommand(db, args, { siteUrl: config().siteUrl, now: Date.now(), company: business.forInsurers }),
  );
  for (const line of result.out) io.log(line);
  for (const line of result.err) io.error(line);
  return result.code;
}

/** Runs `npm run insurers` with its arguments against the database: what to print, and the exit code. */
export async function runInsurersCommand(
  db: Client,
  args: readonly string[],
  { siteUrl, now, company }: { siteUrl: string; now: number; company: ResponseStandards },
): Promise<CommandResult> {
  let values: Values;
  try {
    ({ values } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return done(insurersUsage.split('\n'));
  const command = commandOf(values);
  if (typeof command !== 'string') return command;
  switch (command) {
    case 'add':
      return add(db, values, now, company);
    case 'list':
      return list(db, company);
    case 'link':
      return link(db, values.link!, values.address ?? null, siteUrl, now);
    case 'revoke':
      return revoke(db, values.revoke!, now);
    case 'revoke-address':
      return revokeOne(db, values['revoke-address']!, now);
    case 'suspend':
      return suspend(db, values.suspend!, now);
    case 'resume':
      return resume(db, values.resume!, now);
    case 'remove':
      return remove(db, values.remove!);
    case 'log':
      return log(db, values.log!, values.limit, now);
  }
}

const at = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;

const UNCONFIRMED = 'none (the company’s published standard is a placeholder until content/business.ts confirms it)';

function standardLines(organisation: Organisation, company: ResponseStandards): string[] {
  const inForce = standardsInForce(organisation.ownStandards, company);
  return STANDARD_KEYS.map((key) => {
    const standard = inForce.find((each) => each.key === key);
    const words = !standard
      ? UNCONFIRMED
      : `${standard.words}, ${standard.code}${standard.own ? '' : ' (the company’s published standard)'}`;
    return `  ${key} (${standardMeasureWords(key)}): ${words}`;
  });
}

async function add(db: Client, values: Values, now: number, company: ResponseStandards): Promise<CommandResult> {
  const registered = await registerOrganisation(
    db,
    { name: values.add!, domains: values.domain ?? [], standards: values.standard ?? [] },
    now,
  );
  if (isFailure(registered)) return refused(registered.error);
  return done([
    `${registered.created ? 'Registered' : 'Updated'} ${oneLine(registered.name, 120)}.`,
    `  domains: ${registered.domains.join(', ')}`,
    ...(registered.dropped.length > 0
      ? [`  no longer its domains: ${registered.dropped.join(', ')} (the claims they sent stay its own)`]
      : []),
    ...(registered.ended.length > 0
      ? [`Links and open pages ended at those domains (${registered.ended.length}):`, ...registered.ended.map(endedWords)]
      : []),
    'Standards in force:',
    ...standardLines(registered, company),
  ]);
}

async function list(db: Client, company: ResponseStandards): Promise<CommandResult> {
  const all = await listOrganisations(db);
  if (all.length === 0) return done(['No organisation is registered yet: npm run insurers -- --add "NAME" --domain DOMAIN.']);
  const rows = all.map((organisation) => [
    organisation.name,
    organisation.domains.join(', '),
    String(organisation.claims),
    String(organisation.people),
    standardCodes(organisation, company),
  ]);
  return done([
    ...tableLines(['NAME', 'DOMAINS', 'CLAIMS', 'LINKS', 'STANDARDS'], rows, 60),
    '* the company’s published standard (the organisation has none of its own for it)',
    ...(company.placeholder ? ['- none: the company’s published standards are placeholders until content/business.ts confirms them'] : []),
  ]);
}

function standardCodes(organisation: Organisation, company: ResponseStandards): string {
  const inForce = standardsInForce(organisation.ownStandards, company);
  return STANDARD_KEYS.map((key) => {
    const standard = inForce.find((each) => each.key === key);
    return `${key}=${standard ? `${standard.code}${standard.own ? '' : '*'}` : '-'}`;
  }).join(' ');
}

async function link(db: Client, domain: string, address: string | null, siteUrl: string, now: number): Promise<CommandResult> {
  const made = await linkFor(db, domain, address, now);
  if (isFailure(made)) return refused(made.error);
  const whom = address === null ? 'the office' : address.trim();
  return done([
    `${siteUrl}/portfolio/open/${made.token}`,
    `For ${whom} at ${oneLine(made.organisation.name, 120)}: it opens once, within ${PORTFOLIO_LINK_HOURS} hours. Give it to them only.`,
  ]);
}

const endedWords = (person: EndedLink) =>
  `  ${person.email ?? 'an office link'}, ${person.lastUsedMs === null ? 'never used' : `last used ${at(person.lastUsedMs)}`}`;

async function revoke(db: Client, domain: string, now: number): Promise<CommandResult> {
  const revoked = await revokeOrganisation(db, domain, now);
  if (isFailure(revoked)) return refused(revoked.error);
  const name = oneLine(revoked.organisation.name, 120);
  return done([
    `Every portfolio link of ${name} and every page open with one has stopped working.`,
    ...(revoked.ended.length === 0
      ? ['  No one had a link.']
      : [`Links ended (${revoked.ended.length}):`, ...revoked.ended.map(endedWords)]),
    `Give a new one with --link ${revoked.organisation.domains[0]} [--address EMAIL].`,
  ]);
}

async function revokeOne(db: Client, address: string, now: number): Promise<CommandResult> {
  const revoked = await revokeAddress(db, address, now);
  if (isFailure(revoked)) return refused(revoked.error);
  return done([
    `The portfolio link of ${oneLine(address.trim(), 120)} and any page open with it have stopped working (${revoked.organisations.map((name) => oneLine(name, 120)).join(', ')}).`,
  ]);
}

async function suspend(db: Client, domain: string, now: number): Promise<CommandResult> {
  const suspended = await suspendOrganisation(db, domain, now);
  if (isFailure(suspended)) return refused(suspended.error);
  const name = oneLine(suspended.organisation.name, 120);
  return done([
    `${name} is suspended: its links and open pages have stopped working, and no link can be asked for.`,
    ...(suspended.ended.length === 0 ? [] : [`Ended (${suspended.ended.length}):`, ...suspended.ended.map(endedWords)]),
    `Switch it on again with --resume ${suspended.organisation.domains[0]}.`,
  ]);
}

async function resume(db: Client, domain: string, now: number): Promise<CommandResult> {
  const resumed = await resumeOrganisation(db, domain, now);
  if (isFailure(resumed)) return refused(resumed.error);
  return done([`${oneLine(resumed.organisation.name, 120)} is on again: its people can ask for a link on /insurers.`]);
}

async function remove(db: Client, domain: string): Promise<CommandResult> {
  const removed = await removeOrganisation(db, domain);
  if (isFailure(removed)) return refused(removed.error);
  return done([
    `${oneLine(removed.organisation.name, 120)} is removed, with its domains (${removed.organisation.domains.join(', ')}), people and access log.`,
    `  Its ${removed.claims} claim${removed.claims === 1 ? ' stays' : 's stay'}, seen by no organisation.`,
  ]);
}

const whoWords = (entry: AccessEntry) => (entry.personId === null ? 'the operator' : (entry.email ?? 'an office link'));

async function log(db: Client, domain: string, limitText: string | undefined, now: number): Promise<CommandResult> {
  const limit = limitText === undefined ? 50 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    return usageError(`--limit must be a whole number from 1 to 1000, not "${limitText}".`);
  const found = await accessLogOf(db, domain, limit);
  if (isFailure(found)) return refused(found.error);
  const name = oneLine(found.organisation.name, 120);
  const sessions = await sessionsOfOrganisation(db, found.organisation.id, now);
  const sessionLines =
    sessions.length === 0
      ? [`No browser is signed in to the portfolio of ${name}.`]
      : [
          `Signed in to the portfolio of ${name} (${sessions.length}), newest first:`,
          ...tableLines(
            ['STARTED', 'LAST USED', 'BROWSER', 'WHO'],
            sessions.map((session) => [at(session.createdMs), at(session.lastUsedMs), session.browser, session.email ?? 'an office link']),
            60,
          ),
        ];
  if (found.entries.length === 0) return done([...sessionLines, `Nothing has been done with the portfolio of ${name} yet.`]);
  const rows = found.entries.map((entry) => [at(entry.atMs), whoWords(entry), entry.action, oneLine(entry.detail ?? '', 120)]);
  return done([...sessionLines, `The portfolio of ${name}, newest first:`, ...tableLines(['WHEN', 'WHO', 'WHAT', 'DETAIL'], rows, 60)]);
}
