// `npm run claims -- --revoke HC-ABC-DEF`, `--rotate-links` and `--staff-link HC-ABC-DEF`: a claim's
// signed links (the customer's status link, the company's staff link), in the site's database (DATABASE_URL).
import { STAFF_LINK_PREFIX } from '@/lib/claim-paths.mjs';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { claimLinkToken, renewStaffLink, revokeClaimLinks, rotateClaimLinks, STAFF_LINK_DAYS } from '@/server/claims/claim-links';
import { config } from '@/server/base/config.mjs';
import { getDb } from '@/server/base/db';
import { oneLine } from './support/listing-cli';
import { parseCommandLine } from './support/command-line';

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

const values = parseCommandLine(
  {
    options: {
      revoke: { type: 'string' },
      'rotate-links': { type: 'boolean' },
      'staff-link': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  },
  usage,
);
const chosen = [values.revoke !== undefined, Boolean(values['rotate-links']), values['staff-link'] !== undefined].filter(Boolean);
if (chosen.length !== 1) {
  console.error(usage);
  process.exit(2);
}

/** The enquiry a reference names, or null (said on stderr). */
function enquiryOf(given: string): number | null {
  const reference = given.trim().toUpperCase();
  if (isEnquiryReference(reference)) return enquiryIdOf(reference);
  console.error(`There is no enquiry ${oneLine(given, 40)}.`);
  return null;
}

const db = await getDb();
let code = 0;
if (values['rotate-links']) {
  await rotateClaimLinks(db);
  console.log('Every claim link sent so far has stopped working. Give the company a new staff link with --staff-link when it asks.');
} else if (values.revoke !== undefined) {
  const id = enquiryOf(values.revoke);
  if (id === null || !(await revokeClaimLinks(db, id))) {
    if (id !== null) console.error(`There is no enquiry ${oneLine(values.revoke, 40)}.`);
    code = 1;
  } else {
    console.log(`The links of ${values.revoke.trim().toUpperCase()} have stopped working (its status link and its staff link).`);
  }
} else {
  const given = values['staff-link']!;
  const id = enquiryOf(given);
  const token = id === null ? null : await claimLinkToken(db, 'update', id);
  if (id === null || token === null) {
    if (id !== null) console.error(`There is no enquiry ${oneLine(given, 40)}.`);
    code = 1;
  } else {
    await renewStaffLink(db, id, Date.now());
    console.log(`${config().siteUrl}${STAFF_LINK_PREFIX}${token}`);
  }
}
db.close();
process.exit(code);
