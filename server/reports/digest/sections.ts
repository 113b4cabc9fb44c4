import 'server-only';
import { stageWords } from '@/lib/claim-stages';
import type { ClaimCounts } from '@/server/reports/claim-counts';
import { dryingWords, type DryingClaim } from '@/server/reports/claims-drying';
import type { WebhookEventType } from '@/server/base/db-schema';
import type { HealthProblem } from '@/server/reports/health';
import type { PhotoStorage } from '@/server/ledger/photo-storage';
import type { EnquiryStats } from '@/server/reports/stats';
import { wallClock, type DigestMode } from '@/server/reports/digest/period';
import type { PortfolioDigest } from '@/server/reports/digest/portfolio-facts';
import type { SurveyVisitCounts } from '@/server/claims/survey-booking';

/**
 * Everything a digest says, gathered from the store (server/reports/digest/facts.ts). Enquiries are
 * named by their reference and counted; nothing a visitor typed is here but what the statistics already
 * show (landing page, campaign source).
 */
export type DigestFacts = {
  mode: DigestMode;
  timeZone: string;
  /** The enquiries counted: the period, or the part of it up to when an early digest was asked for. */
  covers: { fromMs: number; toMs: number };
  /** Whether `covers` stops before the period's end (`npm run digest -- --send` during the period). */
  partial: boolean;
  /** The period before, with its count of enquiries, to compare with. */
  previous: { fromMs: number; toMs: number; count: number };
  /** Company notifications not delivered now: failed for good, or waiting longer than they should. */
  undelivered: { reference: string; status: 'pending' | 'failed'; attempts: number; receivedMs: number }[];
  /** Enquiries of the period whose photos were not kept because the photo storage was full. */
  photosRefused: { reference: string; photos: number; receivedMs: number }[];
  healthProblems: HealthProblem[];
  enquiries: EnquiryStats & { unverified: number; spam: number; suspect: number };
  /** The last accepted enquiry received before the end of `covers`, if any. */
  lastEnquiryMs: number | null;
  photoStorage: PhotoStorage | null;
  /** Every accepted enquiry by the stage it is at now, and those past their next date (null: not counted). */
  claims: ClaimCounts | null;
  /** The claims at stage `drying` now, longest first: days since the first visit, and those stalled. */
  drying: DryingClaim[];
  /** Survey visits booked by homeowners in `covers`, and those moved, cancelled or found with no access then. */
  surveys: SurveyVisitCounts;
  /** The error log's entries in `covers`, by category, most first. */
  errorLog: { category: string; count: number }[];
  /** The events sent to the company's CRM, when its webhooks are on (null: off). */
  crm: DigestCrm | null;
  /** The instructing organisations that opened their portfolio or instructed claims in `covers`, by name. */
  portfolios: PortfolioDigest[];
};

export type DigestCrm = {
  /** Events the CRM took in `covers`. */
  delivered: number;
  /** Events still being tried now. */
  waiting: number;
  /** Events failed for good now (refused, or not delivered within a day), oldest first. */
  failed: { reference: string; type: WebhookEventType; attempts: number }[];
  /** When the oldest event still being tried was queued. */
  oldestWaitingMs: number | null;
};

export type DigestEmail = { subject: string; text: string; html: string };

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Mon 23 Nov 08:00` in the company's time zone. */
function localTime(instantMs: number, timeZone: string): string {
  const clock = wallClock(instantMs, timeZone);
  const weekday = WEEKDAYS[new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay()];
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${weekday} ${clock.day} ${MONTHS[clock.month - 1]} ${pad(clock.hour)}:${pad(clock.minute)}`;
}

/** `23 Nov` in the company's time zone. */
function shortDate(instantMs: number, timeZone: string): string {
  const clock = wallClock(instantMs, timeZone);
  return `${clock.day} ${MONTHS[clock.month - 1]}`;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

const oneDecimal = (value: number) => value.toLocaleString('en-GB', { maximumFractionDigits: 1 });
const size = (bytes: number) =>
  bytes >= 1e9 ? `${oneDecimal(bytes / 1e9)} GB` : bytes >= 1e6 ? `${oneDecimal(bytes / 1e6)} MB` : `${Math.round(bytes / 1000)} KB`;

/** One plain line of at most `max` characters (landing pages and campaign tags are cleaned when stored; this bounds them). */
function plainLine(value: string, max = 60): string {
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const HEALTH_LINES: Partial<Record<HealthProblem, string>> = {
  'database-unreachable': 'the database did not answer',
  'notifications-failed': 'a notification failed for good',
  'notifications-delayed': 'a notification has waited more than 15 minutes',
  'delivery-paused': "delivery is paused: the mail relay refused the site's settings (check SMTP_URL)",
  'photo-storage-full': 'photos are not being kept: their storage is full or the disk is low',
  'personal-data-readable': 'files holding personal data can be read by other users of the machine',
  'webhooks-failed': "an event to the company's CRM failed for good",
  'webhooks-delayed': "an event to the company's CRM has waited more than an hour",
};

/** The failed CRM events a digest lists by name; the rest are counted. */
const CRM_FAILED_LISTED = 20;

/** A section: a heading, lines of text, and tables of label and count. */
type Block = { kind: 'p'; text: string } | { kind: 'list'; items: string[] } | { kind: 'table'; rows: [string, string][] };
type Section = { heading: string; blocks: Block[] };

function needsAction(facts: DigestFacts): boolean {
  return facts.undelivered.length > 0 || facts.photosRefused.length > 0 || facts.healthProblems.length > 0;
}

/** How a section tells a time and the period: `Mon 23 Nov 08:00`, `week` or `day`, and ` so far` for an early digest. */
type Wording = { at: (ms: number) => string; unit: string; so: string };

function sections(facts: DigestFacts): Section[] {
  const words: Wording = {
    at: (ms) => localTime(ms, facts.timeZone),
    unit: facts.mode === 'weekly' ? 'week' : 'day',
    so: facts.partial ? ' so far' : '',
  };
  const drying = dryingSection(facts.drying);
  const surveys = surveysSection(facts.surveys, words);
  const portfolios = portfoliosSection(facts.portfolios, words);
  return [
    needsActionSection(facts, words.at),
    enquiriesSection(facts, words),
    claimsSection(facts.claims),
    ...(drying ? [drying] : []),
    ...(surveys ? [surveys] : []),
    ...(portfolios ? [portfolios] : []),
    ...(facts.crm ? [{ heading: 'CRM', blocks: crmBlocks(facts.crm, words.at, `this ${words.unit}${words.so}`) }] : []),
    photoStorageSection(facts.photoStorage),
    errorLogSection(facts.errorLog, words),
  ];
}

/** Notifications not delivered, photos not kept, health checks not OK: or that nothing needs action. */
function needsActionSection(facts: DigestFacts, at: Wording['at']): Section {
  const action: Block[] = [];
  if (facts.undelivered.length > 0) {
    action.push({ kind: 'p', text: `${plural(facts.undelivered.length, 'enquiry notification')} not delivered to the company:` });
    action.push({
      kind: 'list',
      items: facts.undelivered.map(
        (job) =>
          `${job.reference}: ${job.status === 'failed' ? `failed after ${plural(job.attempts, 'attempt')}` : `still waiting after ${plural(job.attempts, 'attempt')}`} (received ${at(job.receivedMs)})`,
      ),
    });
    action.push({ kind: 'p', text: 'See them with npm run enquiries; npm run enquiries -- --retry-failed sends the failed ones again.' });
  }
  if (facts.photosRefused.length > 0) {
    action.push({
      kind: 'p',
      text: `Photos not kept because their storage was full (${plural(facts.photosRefused.length, 'enquiry', 'enquiries')}):`,
    });
    action.push({
      kind: 'list',
      items: facts.photosRefused.map((entry) => `${entry.reference}: ${plural(entry.photos, 'photo')} (received ${at(entry.receivedMs)})`),
    });
    action.push({ kind: 'p', text: 'Ask these senders for their photos again once there is room (ENQUIRY_PHOTOS_MAX_MB, the disk).' });
  }
  if (facts.healthProblems.length > 0) {
    action.push({ kind: 'p', text: 'Health checks not OK (npm run health):' });
    action.push({
      kind: 'list',
      items: facts.healthProblems.map((problem) => (HEALTH_LINES[problem] ? `${problem}: ${HEALTH_LINES[problem]}` : problem)),
    });
  }
  return { heading: 'Needs action', blocks: action.length > 0 ? action : [{ kind: 'p', text: 'Nothing needs action.' }] };
}

/** The period's enquiries against the period before, those set apart, and by damage and by landing page. */
function enquiriesSection(facts: DigestFacts, { at, unit, so }: Wording): Section {
  const stats = facts.enquiries;
  const enquiries: Block[] = [];
  if (stats.counted === 0) {
    enquiries.push({
      kind: 'p',
      text: `No enquiries this ${unit}${so} (the ${unit} before: ${facts.previous.count}). ${
        facts.lastEnquiryMs === null ? 'No enquiry has arrived yet.' : `The last one arrived ${at(facts.lastEnquiryMs)}.`
      }`,
    });
  } else {
    enquiries.push({
      kind: 'p',
      text: `${plural(stats.counted, 'enquiry', 'enquiries')} this ${unit}${so} (the ${unit} before: ${facts.previous.count}).`,
    });
    enquiries.push({ kind: 'p', text: `Insurance claims: ${stats.claims.claims}, other enquiries: ${stats.claims.other}.` });
    enquiries.push({
      kind: 'p',
      text: `Urgent (answered as urgent on the form): ${stats.urgent}. Instructions from insurers and loss adjusters: ${stats.instructions}.`,
    });
  }
  const apart = [
    stats.unverified > 0 ? `${stats.unverified} of them unverified (reCAPTCHA could not be asked)` : null,
    `spam ${stats.spam}, suspect ${stats.suspect} (stored, not notified, not counted above)`,
  ].filter((line): line is string => line !== null);
  enquiries.push({ kind: 'list', items: apart });
  if (stats.counted > 0) {
    enquiries.push({ kind: 'p', text: 'By type of damage:' });
    enquiries.push({ kind: 'table', rows: stats.byDamageType.map(({ key, count }) => [key, String(count)]) });
    enquiries.push({ kind: 'p', text: 'By landing page and source:' });
    enquiries.push({
      kind: 'table',
      rows: stats.byLandingAndSource.map(({ landingPage, source, count }) => [
        `${plainLine(landingPage)}, ${plainLine(source)}`,
        String(count),
      ]),
    });
  }
  return { heading: 'Enquiries', blocks: enquiries };
}

/** Every claim by the stage it is at now, and those past their next date. */
function claimsSection(claims: ClaimCounts | null): Section {
  const claimCount = claims?.byStage.reduce((sum, row) => sum + row.claims, 0) ?? 0;
  return {
    heading: 'Claims',
    blocks: !claims
      ? [{ kind: 'p', text: 'Could not be counted.' }]
      : claimCount === 0
        ? [{ kind: 'p', text: 'No claims yet.' }]
        : [
            { kind: 'p', text: `${plural(claimCount, 'claim')} (every accepted enquiry), by the stage each is at now:` },
            { kind: 'table', rows: claims.byStage.map(({ stage, claims: count }) => [stageWords(stage), String(count)]) },
            {
              kind: 'p',
              text: `Past their next date and not completed: ${claims.pastNextDate}.${claims.pastNextDate > 0 ? ' npm run enquiries lists each claim with its stage.' : ''}`,
            },
          ],
  };
}

/** The claims drying out now, when there are any, and those whose readings have not moved. */
function dryingSection(drying: DryingClaim[]): Section | null {
  if (drying.length === 0) return null;
  const stalled = drying.filter((claim) => claim.stalled).length;
  return {
    heading: 'Drying',
    blocks: [
      { kind: 'p', text: `${plural(drying.length, 'claim')} drying out now:` },
      { kind: 'list', items: drying.map((claim) => `${claim.reference}: ${dryingWords(claim)}`) },
      {
        kind: 'p',
        text:
          stalled === 0
            ? 'Every claim drying has readings still falling.'
            : `Readings not moved in three visits: ${stalled} (no location above its goal reads lower than three visits ago).`,
      },
    ],
  };
}

/** The survey visits booked on the status page and what became of them in the period; none when nothing happened. */
function surveysSection(surveys: SurveyVisitCounts, { unit, so }: Wording): Section | null {
  if (Object.values(surveys).every((n) => n === 0)) return null;
  return {
    heading: 'Survey visits',
    blocks: [
      { kind: 'p', text: `This ${unit}${so}:` },
      {
        kind: 'table',
        rows: [
          ['Booked by homeowners on the site', String(surveys.bookedByHomeowners)],
          ['Moved', String(surveys.moved)],
          ['Cancelled', String(surveys.cancelled)],
          ['No access (nobody in)', String(surveys.noAccess)],
        ],
      },
    ],
  };
}

/**
 * The insurers' and adjusters' own views: who opened theirs, and how each standard went for the claims
 * they instructed in the period (as those claims stand now); none when no organisation did either.
 */
function portfoliosSection(portfolios: PortfolioDigest[], { unit, so }: Wording): Section | null {
  if (portfolios.length === 0) return null;
  const opened = portfolios.filter((each) => each.opened > 0);
  const instructed = portfolios.filter((each) => each.claims > 0);
  const waiting = portfolios.flatMap((each) =>
    each.unconfirmed.map(
      ({ domain, count }) =>
        `${plainLine(each.name)}: ${plural(count, 'instruction')} from an address at ${plainLine(domain)}, not yet confirmed`,
    ),
  );
  const openedLine = (each: PortfolioDigest) =>
    `${plainLine(each.name)}: opened ${plural(each.opened, 'time')} by ${plural(each.people, 'person', 'people')}${each.downloads > 0 ? `, CSV downloaded ${plural(each.downloads, 'time')}` : ''}`;
  const standardLine = (tally: PortfolioDigest['standards'][number]) =>
    `${tally.key} (${tally.code}): ${tally.met} met, ${tally.missed} missed${tally.due > 0 ? `, ${tally.due} still due` : ''}`;
  return {
    heading: "Insurers' views",
    blocks: [
      opened.length === 0
        ? { kind: 'p', text: `No organisation opened its view this ${unit}${so}.` }
        : { kind: 'p', text: `Opened their view this ${unit}${so}:` },
      ...(opened.length > 0 ? [{ kind: 'list', items: opened.map(openedLine) } as Block] : []),
      ...(instructed.length === 0
        ? []
        : instructed.flatMap((each): Block[] =>
            each.standards.length === 0
              ? [
                  {
                    kind: 'p',
                    text: `${plainLine(each.name)}: ${plural(each.claims, 'claim')} instructed this ${unit}${so}; no standards to measure them by (none of its own, and the company's are not yet confirmed).`,
                  },
                ]
              : [
                  {
                    kind: 'p',
                    text: `${plainLine(each.name)}: ${plural(each.claims, 'claim')} instructed this ${unit}${so}, against its standards now:`,
                  },
                  { kind: 'list', items: each.standards.map(standardLine) },
                ],
          )),
      ...(waiting.length === 0
        ? []
        : [
            { kind: 'p', text: `Not in their views until their senders confirm them or the CRM names the organisation:` } as Block,
            { kind: 'list', items: waiting } as Block,
          ]),
    ],
  };
}

/** How full the photo storage is, and the disk under it. */
function photoStorageSection(storage: PhotoStorage | null): Section {
  return {
    heading: 'Photo storage',
    blocks: storage
      ? [
          {
            kind: 'p',
            text: `${size(storage.usedBytes)} used of ${size(storage.maxBytes)} (${Math.floor((storage.usedBytes / Math.max(1, storage.maxBytes)) * 100)}%); ${size(storage.freeBytes)} free on the disk, which keeps ${size(storage.minFreeBytes)} free.${storage.state === 'ok' ? '' : ' New photos are NOT being kept.'}`,
          },
        ]
      : [{ kind: 'p', text: 'Could not be checked.' }],
  };
}

/** The error log's entries of the period by category. */
function errorLogSection(errorLog: DigestFacts['errorLog'], { unit, so }: Wording): Section {
  const total = errorLog.reduce((sum, entry) => sum + entry.count, 0);
  return {
    heading: 'Error log',
    blocks:
      total === 0
        ? [{ kind: 'p', text: `No entries this ${unit}${so}.` }]
        : [
            { kind: 'p', text: `${plural(total, 'entry', 'entries')} this ${unit}${so}, by category (npm run logs):` },
            { kind: 'table', rows: errorLog.map(({ category, count }) => [category, String(count)]) },
          ],
  };
}

function crmBlocks(crm: DigestCrm, at: (ms: number) => string, period: string): Block[] {
  const blocks: Block[] = [
    {
      kind: 'p',
      text: `${plural(crm.delivered, 'event')} delivered to the CRM ${period}. Waiting: ${crm.waiting}${crm.oldestWaitingMs === null ? '' : ` (the oldest since ${at(crm.oldestWaitingMs)})`}. Failed for good: ${crm.failed.length}.`,
    },
  ];
  if (crm.failed.length > 0) {
    const listed = crm.failed.slice(0, CRM_FAILED_LISTED);
    const more = crm.failed.length - listed.length;
    blocks.push({
      kind: 'list',
      items: [
        ...listed.map((event) => `${event.reference}: ${event.type}, after ${plural(event.attempts, 'attempt')}`),
        ...(more > 0 ? [`and ${more} more`] : []),
      ],
    });
    blocks.push({
      kind: 'p',
      text: "npm run webhooks -- --list shows why; npm run webhooks -- --resend REFERENCE sends an enquiry's events again.",
    });
  }
  return blocks;
}

function subjectOf(facts: DigestFacts): string {
  const from = shortDate(facts.covers.fromMs, facts.timeZone);
  const to = facts.partial ? `${localTime(facts.covers.toMs, facts.timeZone)} (so far)` : shortDate(facts.covers.toMs, facts.timeZone);
  const count = facts.enquiries.counted === 0 ? 'no enquiries' : plural(facts.enquiries.counted, 'enquiry', 'enquiries');
  return `${needsAction(facts) ? 'Action needed: ' : ''}Website ${facts.mode} digest ${from} to ${to}: ${count}`;
}

function textOf(title: string, parts: Section[]): string {
  const lines = [title, ''];
  for (const section of parts) {
    lines.push(section.heading.toUpperCase());
    for (const block of section.blocks) {
      if (block.kind === 'p') lines.push(block.text);
      else if (block.kind === 'list') lines.push(...block.items.map((item) => `- ${item}`));
      else {
        const width = Math.min(44, Math.max(...block.rows.map(([label]) => label.length)));
        lines.push(...block.rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`));
      }
    }
    lines.push('');
  }
  lines.push('Sent by the website. Turn it off with ENQUIRY_DIGEST=off.');
  return `${lines.join('\n')}\n`;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

function htmlOf(title: string, parts: Section[]): string {
  const body: string[] = [`<h1 style="font-size:1.25em">${escapeHtml(title)}</h1>`];
  for (const section of parts) {
    body.push(`<h2 style="font-size:1.1em;margin-top:1.2em">${escapeHtml(section.heading)}</h2>`);
    for (const block of section.blocks) {
      if (block.kind === 'p') body.push(`<p>${escapeHtml(block.text)}</p>`);
      else if (block.kind === 'list') body.push(`<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`);
      else
        body.push(
          `<table style="border-collapse:collapse">${block.rows
            .map(
              ([label, value]) =>
                `<tr><td style="padding:2px 12px 2px 0">${escapeHtml(label)}</td><td style="text-align:right">${escapeHtml(value)}</td></tr>`,
            )
            .join('')}</table>`,
        );
    }
  }
  body.push('<p style="color:#555">Sent by the website. Turn it off with ENQUIRY_DIGEST=off.</p>');
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;line-height:1.4;max-width:40em">${body.join('\n')}</body></html>\n`;
}

/** The digest as an e-mail: the subject, plain text and a simple HTML alternative (no images, no links). */
export function composeDigest(facts: DigestFacts): DigestEmail {
  const parts = sections(facts);
  const title = `Website ${facts.mode} digest: ${localTime(facts.covers.fromMs, facts.timeZone)} to ${localTime(facts.covers.toMs, facts.timeZone)}${facts.partial ? ' (so far)' : ''}`;
  return { subject: subjectOf(facts), text: textOf(title, parts), html: htmlOf(title, parts) };
}
