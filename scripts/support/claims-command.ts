// What `npm run claims` does (scripts/claims.ts runs it): a claim's signed links (the customer's status
// link, the company's staff link), in the site's database (DATABASE_URL).
import { STAFF_LINK_PREFIX } from '@/lib/claim-paths.mjs';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { claimLinkToken, renewStaffLink, revokeClaimLinks, rotateClaimLinks, STAFF_LINK_DAYS } from '@/server/claims/claim-links';
import { config } from '@/server/base/config.mjs';
import type { Client } from '@libsql/client';
import { oneLine } from './listing-cli';
import { withDatabase, type CommandIo } from './command-io';
import { readCommandLine } from './command-line';

const usage = `Usage: npm run claims -- --revoke HC-ABC-DEF
       npm run claims -- --rotate-links
       npm run claims -- --staff-link HC-ABC-DEF
A claim's signed links, in the database at DATABASE_URL (default file:data/site.db).
  --revoke REFERENCE   both links of that claim stop working at once (its status link and its staff
                       link, and any page either opened); --staff-link gives the company a new one
  --rotate-links       every claim's links stop working at once (a new site secret): for a leak you
                       cannot pin to one claim
  --staff-link REFERENCE
                       print the claim's staff link (for SITE_URL) and make it work for another
                       ${STAFF_LINK_DAYS} days: for a link that expired or was revoked. Give it to the company only.`;

const OPTIONS = {
  options: {
    revoke: { type: 'string' },
    'rotate-links': { type: 'boolean' },
    'staff-link': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
} as const;

/** `npm run claims` with these arguments: what it prints goes to `io`, its exit code is returned. */
export async function claimsMain(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = readCommandLine(OPTIONS, usage, args, io);
  if ('exitCode' in parsed) return parsed.exitCode;
  const { values } = parsed;
  const chosen = [values.revoke !== undefined, Boolean(values['rotate-links']), values['staff-link'] !== undefined].filter(Boolean);
  if (chosen.length !== 1) {
    io.error(usage);
    return 2;
  }
  return withDatabase(async (db) => {
    if (values['rotate-links']) {
      await rotateClaimLinks(db);
      io.log('Every claim link sent so far has stopped working. Give the company a new staff link with --staff-link when it asks.');
      return 0;
    }
    if (values.revoke !== undefined) return revoke(db, values.revoke, io);
    return staffLink(db, values['staff-link']!, io);
  });
}

/** The enquiry a reference names, or null (said on stderr). */
function enquiryOf(given: string, io: CommandIo): number | null {
  const reference = given.trim().toUpperCase();
  if (isEnquiryReference(reference)) return enquiryIdOf(reference);
  io.error(`There is no enquiry ${oneLine(given, 40)}.`);
  return null;
}

async function revoke(db: Client, given: string, io: CommandIo): Promise<number> {
  const id = enquiryOf(given, io);
  if (id === null) return 1;
  if (!(await revokeClaimLinks(db, id))) {
    io.error(`There is no enquiry ${oneLine(given, 40)}.`);
    return 1;
  }
  io.log(`The links of ${given.trim().toUpperCase()} have stopped working (its status link and its staff link).`);
  return 0;
}

async function staffLink(db: Client, given: string, io: CommandIo): Promise<number> {
  const id = enquiryOf(given, io);
  if (id === null) return 1;
  const token = await claimLinkToken(db, 'update', id);
  if (token === null) {
    io.error(`There is no enquiry ${oneLine(given, 40)}.`);
    return 1;
  }
  await renewStaffLink(db, id, Date.now());
  io.log(`${config().siteUrl}${STAFF_LINK_PREFIX}${token}`);
  return 0;
}
