// `npm run enquiries [-- --limit N] [-- --json] [-- --retry-failed]`: recent enquiries in the site's
// database (DATABASE_URL) with their verification and delivery status; `--export EMAIL` and
// `--erase EMAIL` answer a person's request for their data; `--stats` counts where enquiries come from.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { webhookStateOf, webhooksConfigured, type WebhookState } from '@/server/crm/webhook-status';
import { getDb } from '@/server/base/db';
import { erasePersonalData, exportPersonalData } from '@/server/upkeep/data-requests';
import { retryFailedJobs } from '@/server/delivery/outbox-worker';
import {
  claimRoleLabel,
  damageTypeLabel,
  desktopAnswerLabel,
  isInstructingRole,
  urgencyAnswerLabel,
  urgencyReasons,
  vatAnswerLabel,
} from '@/lib/contact-fields';
import { photosOf, photosRoot, readPhotos } from '@/server/ledger/photo-store';
import { readEnquiryStats } from '@/server/reports/stats';
import { findEnquiry, recentEnquiries, type EnquiryListing } from '@/server/ledger/enquiry-reads';
import { hasClaim, hasSupportNeeds, isCalendarDate } from '@/lib/contact-fields';
import { stageWords } from '@/lib/claim-stages';
import { claimsDrying, dryingWords, type DryingClaim } from '@/server/reports/claims-drying';
import { statsReport } from './support/enquiry-stats-report';
import { oneLine, parseListingOptions, printable, tableLines, terminalJson } from './support/listing-cli';

const usage = `Usage: npm run enquiries [-- --limit N] [-- --json] [-- --full] [-- --retry-failed]
Prints the N most recent enquiries (default 20, at most 1000), oldest first, from the database at
DATABASE_URL (default file:data/site.db): reference, when, who, subject, disposition (accepted, spam,
suspect), verification (verified, unverified, low-score, honeypot, not-configured), delivery of the
notification (pending, sent, failed, not notified) and of the sender's acknowledgement, and under each
enquiry its claim details, what would help us work with the person (no phone calls, their support
needs), its urgency answers (URGENT when they make it so) and an insurer's or loss adjuster's
instruction (policyholder, telephone, address, VAT, excess, desktop assessment) when it has any;
with webhooks to the CRM on (CRM_WEBHOOK_URL), whether the CRM has each enquiry's events.
--json prints every field.
  --full          also print each message
  --retry-failed  requeue every notification that failed permanently, then list
  --export EMAIL  print everything held about that e-mail address as JSON (a subject access request)
  --erase EMAIL   delete every enquiry sent with that address, with its e-mails (even if pending) and photos
  --photos ID --out DIR
                  write the photos of enquiry #ID into DIR (created if missing) as <reference>-<n>.jpg
  --stats [--since YYYY-MM-DD]
                  count the accepted enquiries (since that day, UTC): by month, by landing page and
                  source (campaign source, else the referring site, else direct or unknown), by type
                  of damage, claims against the rest, and urgent against the rest; with --json as JSON`;

function delivery(entry: EnquiryListing) {
  if (entry.delivery === 'sent') return `sent ${entry.sentAt ?? ''}`.trim();
  if (entry.delivery === 'pending' && entry.attempts > 0) return `pending (${entry.attempts} tries: ${oneLine(entry.lastError ?? '', 60)})`;
  if (entry.delivery === 'failed') return `FAILED after ${entry.attempts}: ${oneLine(entry.lastError ?? '', 60)}`;
  return entry.delivery;
}

/** The claim details on one line: type of damage, date, postcode, insurer, claim reference, who. */
function claimLine(entry: EnquiryListing): string | null {
  if (!hasClaim(entry)) return null;
  const parts = [
    entry.damageType && damageTypeLabel(entry.damageType),
    entry.damageDate && `damaged ${entry.damageDate}`,
    entry.postcode,
    entry.insurer && `insurer ${entry.insurer}`,
    entry.claimReference && `claim ${entry.claimReference}`,
    entry.claimRole && `from ${claimRoleLabel(entry.claimRole)}`,
  ].filter(Boolean);
  return oneLine(parts.join(', '), 160);
}

/** What would help us work with the person on one line: `no phone calls; Ring the side door, ask for Ali`. */
function supportLine(entry: EnquiryListing): string | null {
  if (!hasSupportNeeds(entry)) return null;
  const needs = (entry.supportNeeds ?? '')
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
  return oneLine([entry.noPhoneCalls && 'no phone calls', needs].filter(Boolean).join('; '), 200);
}

/** Whether it is urgent and the answers: `URGENT (worse yes, tonight no, at risk not sure)`. */
function urgencyLine(entry: EnquiryListing): string | null {
  const answers = [
    entry.worsening && `worse ${urgencyAnswerLabel(entry.worsening).toLowerCase()}`,
    entry.habitable && `tonight ${urgencyAnswerLabel(entry.habitable).toLowerCase()}`,
    entry.vulnerable && `at risk ${urgencyAnswerLabel(entry.vulnerable).toLowerCase()}`,
  ].filter(Boolean);
  if (answers.length === 0) return null;
  return `${urgencyReasons(entry).length > 0 ? 'URGENT' : 'not urgent'} (${answers.join(', ')})`;
}

/** An insurer's or loss adjuster's instruction on one line: policyholder, telephone, address, VAT, excess, desktop. */
function instructionLine(entry: EnquiryListing): string | null {
  if (!isInstructingRole(entry.claimRole)) return null;
  const parts = [
    `policyholder ${entry.policyholderName ?? '-'}`,
    entry.policyholderPhone ?? '-',
    (entry.propertyAddress ?? '-')
      .split('\n')
      .map((part) => part.trim())
      .join(', '),
    `VAT ${vatAnswerLabel(entry.vatRegistered) || '-'}`,
    `excess ${entry.excess ?? '-'}`,
    `desktop ${desktopAnswerLabel(entry.desktopAssessment) || '-'}`,
  ];
  return oneLine(parts.join('; '), 200);
}

/** Whether the CRM has an accepted enquiry's events: `delivered`, `waiting (3 attempts, last: HTTP 503)`, `failed: HTTP 410`. */
function crmLine(entry: EnquiryListing, state: WebhookState | undefined): string | null {
  if (!state) return entry.disposition === 'accepted' ? 'not sent (npm run webhooks -- --resend sends it)' : null;
  if (state.state === 'delivered') return 'delivered';
  if (state.state === 'failed') return `failed: ${oneLine(state.lastError ?? 'no error recorded', 80)}`;
  if (state.attempts === 0) return 'waiting';
  const tries = `${state.attempts} attempt${state.attempts === 1 ? '' : 's'}`;
  return `waiting (${state.lastError ? `${tries}, last: ${oneLine(state.lastError, 60)}` : tries})`;
}

function table(entries: EnquiryListing[], full: boolean, crm: Map<number, WebhookState> | null, drying: Map<number, DryingClaim>) {
  const header = ['#', 'reference', 'received', 'from', 'subject', 'photos', 'disposition', 'verification', 'delivery', 'acknowledgement'];
  const rows = entries.map((entry) => [
    String(entry.id),
    entry.reference ?? '-',
    entry.receivedAt.replace('T', ' ').slice(0, 19),
    oneLine(`${entry.name} <${entry.email}>`, 40),
    oneLine(entry.subject, 40),
    String(entry.photos),
    entry.disposition,
    entry.verification + (entry.score === null ? '' : ` (${entry.score})`),
    delivery(entry),
    entry.acknowledgement,
  ]);
  const [headerLine, ...rowLines] = tableLines(header, rows);
  const lines = [headerLine!];
  rowLines.forEach((line, index) => {
    lines.push(line);
    const entry = entries[index]!;
    const claim = claimLine(entry);
    if (claim) lines.push(`    claim: ${claim}`);
    const support = supportLine(entry);
    if (support) lines.push(`    support: ${support}`);
    lines.push(`    stage: ${stageWords(entry.stage)}`);
    const dryingClaim = drying.get(entry.id);
    if (dryingClaim) lines.push(`    drying: ${dryingWords(dryingClaim)}`);
    const urgency = urgencyLine(entry);
    if (urgency) lines.push(`    urgency: ${urgency}`);
    const instruction = instructionLine(entry);
    if (instruction) lines.push(`    instruction: ${instruction}`);
    const crmState = crm && crmLine(entry, crm.get(entry.id));
    if (crmState) lines.push(`    CRM: ${crmState}`);
    if (full) {
      lines.push(`    phone: ${oneLine(entry.phone ?? '-', 60)}  client: ${oneLine(entry.clientAddress, 60)}`);
      lines.push(
        ...printable(entry.message)
          .split('\n')
          .map((text) => `    | ${text}`),
      );
    }
  });
  return lines.join('\n');
}

const options = parseListingOptions(
  usage,
  ['full', 'retry-failed', 'stats'] as const,
  ['export', 'erase', 'photos', 'out', 'since'] as const,
);
const since = options.texts.since;
if (since !== undefined && (!options.flags.stats || !isCalendarDate(since))) {
  console.error(`--since goes with --stats and takes a date written YYYY-MM-DD, not "${since}".\n\n${usage}`);
  process.exit(2);
}
const db = await getDb();
if (options.flags.stats) {
  const stats = await readEnquiryStats(db, since);
  console.log(options.json ? terminalJson(stats) : statsReport(stats, since));
  db.close();
  process.exit(0);
}
if (options.texts.photos !== undefined || options.texts.out !== undefined) {
  const id = Number(options.texts.photos);
  if (!Number.isInteger(id) || id < 1 || !options.texts.out) {
    console.error(`--photos needs an enquiry number and --out a folder.\n\n${usage}`);
    process.exit(2);
  }
  const enquiry = await findEnquiry(db, id);
  if (!enquiry) {
    console.error(`There is no enquiry #${id}.`);
    process.exit(1);
  }
  const photos = await readPhotos(photosRoot(), await photosOf(db, id));
  // Photos of the inside of someone's home: owner-only, whatever the umask.
  mkdirSync(options.texts.out, { recursive: true, mode: 0o700 });
  let written = 0;
  for (const photo of photos) {
    if (!photo.content) continue;
    writeFileSync(path.join(options.texts.out, `${enquiry.reference ?? `enquiry-${id}`}-${photo.position}.jpg`), photo.content, {
      mode: 0o600,
    });
    written += 1;
  }
  const missing = photos.length - written;
  console.log(
    `Wrote ${written} photo${written === 1 ? '' : 's'} of enquiry #${id} to ${options.texts.out}.${missing > 0 ? ` ${missing} missing from the server.` : ''}`,
  );
  db.close();
  process.exit(0);
}
const personal = options.texts.export ?? options.texts.erase;
if (personal !== undefined && !/^[^\s@]+@[^\s@]+$/.test(personal.trim())) {
  console.error(`"${personal}" is not an e-mail address.\n\n${usage}`);
  process.exit(2);
}
if (options.texts.export !== undefined) {
  console.log(terminalJson(await exportPersonalData(db, options.texts.export)));
  db.close();
  process.exit(0);
}
if (options.texts.erase !== undefined) {
  const erased = await erasePersonalData(db, options.texts.erase);
  console.log(
    `Erased ${erased.enquiries} enquir${erased.enquiries === 1 ? 'y' : 'ies'} and their ${erased.emails} e-mail${erased.emails === 1 ? '' : 's'} (notifications, acknowledgements) for ${options.texts.erase}.`,
  );
  if (erased.portfolioLinks > 0)
    console.log(
      `Erased its portfolio link${erased.portfolioLinks === 1 ? '' : 's'} (${erased.portfolioLinks}) and what the access log kept of their uses.`,
    );
  db.close();
  process.exit(0);
}
if (options.flags['retry-failed']) {
  const requeued = await retryFailedJobs(db);
  console.log(
    `Requeued ${requeued} failed notification${requeued === 1 ? '' : 's'}; the running server's worker sends them at its next poll.`,
  );
}
const entries = await recentEnquiries(db, options.limit);
const crm = webhooksConfigured()
  ? await webhookStateOf(
      db,
      entries.map((entry) => entry.id),
    )
  : null;
const drying = new Map((await claimsDrying(db, Date.now())).map((claim) => [claim.enquiryId, claim]));
const withDrying = entries.map((entry) => {
  const claim = drying.get(entry.id);
  return claim ? { ...entry, drying: { days: claim.days, stalled: claim.stalled } } : entry;
});
if (options.json) console.log(terminalJson(crm ? withDrying.map((entry) => ({ ...entry, crm: crm.get(entry.id) ?? null })) : withDrying));
else if (entries.length === 0) console.log('No enquiries yet.');
else console.log(table(entries, options.flags.full, crm, drying));
db.close();
