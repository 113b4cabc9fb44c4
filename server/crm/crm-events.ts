import 'server-only';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { NOTE_MAX, isClaimStage, isWaitingOn } from '@/lib/claim-stages';
import { isCalendarDate } from '@/lib/contact-fields';
import { DRYING_LIMITS, ZONED_DATE_TIME, dryingTimeErrors, parseDryingRecorded, type DryingRecordedEvent } from '@/lib/drying';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { config } from '@/server/base/config.mjs';
import { recordStageChange, type StageChange } from '@/server/claims/claim-status';
import { driedRefusalOf, locationWords, recordDryingVisit } from '@/server/claims/drying/record';
import { reopenIfWet } from '@/server/claims/drying/reopen';
import { verifyWebhook, webhookKey } from '@/server/crm/standard-webhooks';
import { applyWindowEvent, WINDOW_EVENT_TYPES } from '@/server/crm/crm-window-events';
import { cancelSurvey, moveSurvey, recordNoAccess } from '@/server/claims/survey-booking';
import { parseWindowValue } from '@/lib/survey-windows';
import { business } from '@/content/business';
import { outboxWritten } from '@/server/ledger/outbox';
import { isFailure, organisationOfDomain, parseDomain } from '@/server/portfolio/organisations';
import { getDb, orm } from '@/server/base/db';
import { claimStageChanges, enquiries } from '@/server/base/db-schema';
import { failure, readCappedText, type HandlerResult } from '@/server/base/http';

/**
 * A claim update is a few hundred bytes (a note at its longest is 4 KB of UTF-8); a drying visit with
 * its 40 locations and 20 machines about 15 KB, more with escaped characters in its names.
 */
const EVENT_MAX_BYTES = 64 * 1024;

type FieldError = { path: string; msg: string };
/** `organisation`: the domain of the instructing organisation the claim belongs to, when the event names one. */
type ClaimUpdate = { reference: string; at: number; change: Omit<StageChange, 'source' | 'eventId' | 'at'>; organisation: string | null };

/** How far before the claim was received an event may say it happened: the CRM's clock may be behind ours by this much. */
const CLOCK_SKEW_MS = 5 * 60_000;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A `claim.updated` event's body, field by field; the errors name each field that is wrong. */
function parseClaimUpdate(body: unknown): ClaimUpdate | FieldError[] {
  if (!isRecord(body)) return [{ path: 'body', msg: 'must be a JSON object' }];
  const errors: FieldError[] = [];
  if (body.type !== 'claim.updated') errors.push({ path: 'type', msg: 'must be "claim.updated"' });
  const at = typeof body.timestamp === 'string' && ZONED_DATE_TIME.test(body.timestamp) ? Date.parse(body.timestamp) : NaN;
  if (Number.isNaN(at)) errors.push({ path: 'timestamp', msg: 'must be an ISO 8601 date and time with its offset (Z or ±hh:mm)' });
  const data = body.data;
  if (!isRecord(data)) return [...errors, { path: 'data', msg: 'must be an object' }];
  const { reference, stage, date, waitingOn, note, organisation } = data;
  if (!isEnquiryReference(reference)) errors.push({ path: 'data.reference', msg: 'must be a reference like HC-ABC-DEF' });
  if (!isClaimStage(stage)) errors.push({ path: 'data.stage', msg: 'must be one of the stages (lib/claim-stages.ts)' });
  if (date !== undefined && (typeof date !== 'string' || !isCalendarDate(date)))
    errors.push({ path: 'data.date', msg: 'must be a date, YYYY-MM-DD' });
  if (waitingOn !== undefined && !isWaitingOn(waitingOn))
    errors.push({ path: 'data.waitingOn', msg: 'must be "us", "insurer" or "customer"' });
  if (note !== undefined && (typeof note !== 'string' || note.length > NOTE_MAX))
    errors.push({ path: 'data.note', msg: `must be text of at most ${NOTE_MAX} characters` });
  const domain = organisation === undefined ? null : typeof organisation === 'string' ? parseDomain(organisation) : { error: '' };
  if (isFailure(domain)) errors.push({ path: 'data.organisation', msg: 'must be an e-mail domain, such as adjusters.example' });
  if (errors.length > 0 || !isEnquiryReference(reference) || !isClaimStage(stage) || isFailure(domain)) return errors;
  return {
    reference,
    at,
    change: {
      stage,
      nextDate: typeof date === 'string' ? date : null,
      waitingOn: isWaitingOn(waitingOn) ? waitingOn : null,
      note: typeof note === 'string' && note.trim() ? note.trim() : null,
      tellCustomer: true,
    },
    organisation: domain,
  };
}

const isRecordedEvent = async (client: Client, eventId: string) =>
  (await orm(client).select({ id: claimStageChanges.id }).from(claimStageChanges).where(eq(claimStageChanges.eventId, eventId))).length > 0;

export type CrmEventsDeps = {
  secret?: string | null;
  db?: () => Promise<Client>;
  now?: () => number;
  /** Whether a change the site makes (a wet reading after `dried`) is told to the CRM (default: when CRM_WEBHOOK_URL is set). */
  tellCrm?: boolean;
};

/**
 * POST /api/crm/events: the company's CRM moves a claim's stage, signed the Standard Webhooks way with
 * CRM_EVENTS_SECRET (off, 404, without it). A bad or missing signature, or a `webhook-timestamp` more
 * than five minutes from now: 401. An event id seen before: 200, not applied again. An unknown
 * reference: 404; a malformed body, an unknown stage, or a body `timestamp` (when the change happened)
 * after the signature's or over five minutes before the claim was received: 400 naming the field.
 * Applied at the body's `timestamp`: 200, with `current: false` when the claim already shows a later
 * change (server/claims/claim-status.ts recordStageChange).
 */
export function createCrmEventsHandler(deps: CrmEventsDeps = {}) {
  const secret = deps.secret === undefined ? config().crmEventsSecret : deps.secret;
  const key = secret ? webhookKey(secret) : null;
  const parts: EventParts = { db: deps.db ?? getDb, now: deps.now ?? Date.now, tellCrm: deps.tellCrm };

  return async function handleCrmEvent(request: Request): Promise<HandlerResult> {
    if (!key) return failure(404, 'Not found');
    const event = await readSignedEvent(request, key, parts.now);
    if ('status' in event) return event;
    const { parsed, verified } = event;
    if (isRecord(parsed) && parsed.type === 'claim.drying_recorded') return applyDryingVisit(parsed, verified, parts);
    if (isRecord(parsed) && WINDOW_EVENT_TYPES.includes(parsed.type as (typeof WINDOW_EVENT_TYPES)[number]))
      return applyWindowEvent(parsed, verified.id, await parts.db(), parts.now());
    if (isRecord(parsed) && VISIT_EVENT_TYPES.includes(parsed.type as (typeof VISIT_EVENT_TYPES)[number]))
      return applyVisitChange(parsed, verified, parts);
    return applyClaimUpdate(parsed, verified, parts);
  };
}

/** What applying an event draws on: the database, the clock, and whether a change the site makes is told to the CRM. */
type EventParts = { db: () => Promise<Client>; now: () => number; tellCrm: boolean | undefined };
type Verified = { id: string; timestamp: number };

/** The body read within its cap, its signature checked, then parsed as JSON; or the response that refuses it (400, 401, 413). */
async function readSignedEvent(
  request: Request,
  key: ReturnType<typeof webhookKey>,
  now: () => number,
): Promise<{ parsed: unknown; verified: Verified } | HandlerResult> {
  let body: string;
  try {
    body = await readCappedText(request, EVENT_MAX_BYTES);
  } catch (error) {
    return error instanceof TypeError
      ? failure(400, 'The body is not UTF-8 text.')
      : failure(413, `An event is at most ${EVENT_MAX_BYTES} bytes.`);
  }
  const verified = verifyWebhook(key, request.headers, body, now());
  if (!verified.ok)
    return failure(401, 'The event is not signed with this site’s secret, or its timestamp is not within five minutes of now.', {
      reason: verified.reason,
    });

  try {
    return { parsed: JSON.parse(body) as unknown, verified };
  } catch {
    return failure(400, 'The body is not JSON.', { errors: [{ path: 'body', msg: 'must be JSON' }] });
  }
}

/** A `claim.updated` event: the claim moved to its stage at the body's `timestamp`, unless it cannot be `dried` yet (409). */
async function applyClaimUpdate(parsed: unknown, verified: Verified, { db, now }: EventParts): Promise<HandlerResult> {
  const update = parseClaimUpdate(parsed);
  if (Array.isArray(update)) return failure(400, 'The event is not a claim update this site takes.', { errors: update });
  const claim = await claimOf(db, update.reference, update.at, verified.timestamp, 'The event is not a claim update this site takes.');
  if ('status' in claim) return claim;
  const owner = update.organisation === null ? null : await organisationOfDomain(claim.client, update.organisation);
  if (isFailure(owner))
    return failure(400, 'The event is not a claim update this site takes.', {
      errors: [{ path: 'data.organisation', msg: 'is not a domain of an organisation registered with npm run insurers' }],
    });
  // An event applied before gets the response for one, whatever the drying record says now.
  if (update.change.stage === 'dried' && !(await isRecordedEvent(claim.client, verified.id))) {
    const refused = await notDriedYet(claim.client, claim.id);
    if (refused) return refused;
  }
  const outcome = await recordStageChange(
    claim.client,
    claim.id,
    { ...update.change, at: update.at, source: 'crm', eventId: verified.id },
    now(),
  );
  // The company naming the organisation is proof (server/claims/instruction-proof.ts).
  if (owner !== null)
    await orm(claim.client)
      .update(enquiries)
      .set({ organisationId: owner.id, organisationProof: 'company' })
      .where(eq(enquiries.id, claim.id));
  return {
    status: 200,
    body:
      outcome === 'already-applied' ? { success: true, applied: false } : { success: true, applied: true, current: outcome === 'current' },
  };
}

/** 409 when the claim cannot be `dried`: no drying readings, or a location above its drying goal; null when it can. */
async function notDriedYet(client: Client, id: number): Promise<HandlerResult | null> {
  const refusal = await driedRefusalOf(client, id);
  if (!refusal) return null;
  const msg =
    refusal.kind === 'no-readings'
      ? 'cannot be "dried": the claim has no drying readings'
      : `cannot be "dried": ${locationWords(refusal.location)} is above its drying goal`;
  return failure(409, `The claim cannot move to dried: ${msg.replace('cannot be "dried": ', '')}.`, {
    errors: [{ path: 'data.stage', msg }],
  });
}

/** The company's changes of a claim's survey visit, as its CRM sends them. */
const VISIT_EVENT_TYPES = ['appointment.moved', 'appointment.no_access', 'appointment.cancelled'] as const;

/** Why a move the CRM asked for was not made, as the 409 says it. */
const MOVE_REFUSED: Record<'full' | 'not-offered' | 'blocked', string> = {
  full: 'has no place left',
  blocked: 'is blocked',
  'not-offered': 'is not offered: windows run from the next working day up to 15 working days ahead',
};

/**
 * An `appointment.moved` event (`{reference, date, window}`: the company moved the visit to that
 * window, which must be offered and have a place), `appointment.no_access` (the surveyor found nobody
 * in) or `appointment.cancelled` (the company cancelled the visit), `{reference}`: as the staff page's
 * buttons, the customer told by e-mail (the moved invite; or asked to book again, the claim back to
 * "Contacted" waiting on them). Applied once by its `webhook-id` (200, `applied: false` after); no
 * visit booked, or a window that cannot take it: 409.
 */
async function applyVisitChange(
  body: Record<string, unknown>,
  verified: Verified,
  { db, now, tellCrm }: EventParts,
): Promise<HandlerResult> {
  const refused = 'The event is not a change of a survey visit this site takes.';
  const data = isRecord(body.data) ? body.data : {};
  if (!isEnquiryReference(data.reference))
    return failure(400, refused, { errors: [{ path: 'data.reference', msg: 'must be a reference like HC-ABC-DEF' }] });
  const slot = body.type === 'appointment.moved' ? parseWindowValue(`${String(data.date)}-${String(data.window)}`) : null;
  if (body.type === 'appointment.moved' && !slot)
    return failure(400, refused, {
      errors: [{ path: 'data.date', msg: 'must be a date like 2026-12-01, with data.window "am" or "pm"' }],
    });
  const reference = data.reference;
  const claim = await claimOf(db, reference, verified.timestamp * 1000, verified.timestamp, refused);
  if ('status' in claim) return claim;
  if (await isRecordedEvent(claim.client, verified.id)) return { status: 200, body: { success: true, applied: false } };
  const request = {
    enquiryId: claim.id,
    now: now(),
    tellCrm: tellCrm ?? config().enquiries.tellCrm,
    madeBy: 'crm' as const,
    eventId: verified.id,
  };
  const hours = business.openingHours;
  const outcome = slot
    ? await moveSurvey(claim.client, { ...request, hours, slot })
    : body.type === 'appointment.no_access'
      ? await recordNoAccess(claim.client, request)
      : await cancelSurvey(claim.client, { ...request, hours });
  if (outcome.kind === 'refused' && (outcome.reason === 'full' || outcome.reason === 'not-offered' || outcome.reason === 'blocked'))
    return failure(409, `The window ${String(data.date)} ${String(data.window)} ${MOVE_REFUSED[outcome.reason]}.`, {
      errors: [{ path: 'data.date', msg: MOVE_REFUSED[outcome.reason] }],
    });
  if (outcome.kind === 'refused')
    return failure(409, `The claim ${reference} has no survey visit booked.`, {
      errors: [{ path: 'data.reference', msg: 'has no survey visit booked' }],
    });
  outboxWritten();
  return { status: 200, body: { success: true, applied: true } };
}

/**
 * The claim an event is about, once its time is checked: not later than its signature's, and not
 * over five minutes before the claim was received. Otherwise the response (400 naming the field, 404).
 */
async function claimOf(
  db: () => Promise<Client>,
  reference: string,
  at: number,
  signedAt: number,
  refused: string,
): Promise<{ client: Client; id: number; receivedMs: number } | HandlerResult> {
  // Sent after it happened: an event's time is not later than its signature's (whole seconds, so within one).
  if (at >= (signedAt + 1) * 1000)
    return failure(400, refused, {
      errors: [{ path: 'timestamp', msg: 'must not be later than the webhook-timestamp it is signed with' }],
    });
  const client = await db();
  const id = enquiryIdOf(reference);
  const [known] = await orm(client)
    .select({ id: enquiries.id, receivedMs: enquiries.receivedMs })
    .from(enquiries)
    .where(eq(enquiries.id, id));
  if (!known) return failure(404, `No claim has the reference ${reference}.`);
  if (at < known.receivedMs - CLOCK_SKEW_MS)
    return failure(400, refused, { errors: [{ path: 'timestamp', msg: 'must not be before the claim was received' }] });
  return { client, id, receivedMs: known.receivedMs };
}

/**
 * A `claim.drying_recorded` event: one visit of the claim's drying record (lib/drying.ts). A reading
 * off its scale, too many locations or machines, a time in the future or over 90 days before the
 * enquiry: 400 naming the field; a claim with its 120 visits already: 409. A reading above its goal on
 * a claim at `dried` moves it back to `drying` (server/claims/drying/reopen.ts).
 */
async function applyDryingVisit(
  body: Record<string, unknown>,
  verified: Verified,
  { db, now, tellCrm }: EventParts,
): Promise<HandlerResult> {
  const refused = 'The event is not a drying visit this site takes.';
  const parsed = parseDryingRecorded(body);
  if (!parsed.ok) return failure(400, refused, { errors: parsed.errors });
  const event: DryingRecordedEvent = parsed.event;
  const claim = await claimOf(db, event.data.reference, Date.parse(event.timestamp), verified.timestamp, refused);
  if ('status' in claim) return claim;
  // The CRM's clock may be ahead of ours by as much as an event's may be behind.
  const timeErrors = dryingTimeErrors(event.data, { now: now() + CLOCK_SKEW_MS, receivedMs: claim.receivedMs });
  if (timeErrors.length > 0) return failure(400, refused, { errors: timeErrors });
  const outcome = await recordDryingVisit(claim.client, claim.id, event.data, { source: 'crm', eventId: verified.id, now: now() });
  if (outcome === 'too-many-visits')
    return failure(409, `A claim keeps at most ${DRYING_LIMITS.visitsPerClaim} drying visits.`, {
      errors: [{ path: 'data', msg: `the claim has ${DRYING_LIMITS.visitsPerClaim} visits already` }],
    });
  // A reading above its goal after `dried` moves the claim back (again for an event sent twice: once only).
  if (await reopenIfWet(claim.client, claim.id, verified.id, { now: now(), tellCrm: tellCrm ?? config().enquiries.tellCrm }))
    outboxWritten();
  return { status: 200, body: { success: true, applied: outcome === 'recorded' } };
}

let shared: ReturnType<typeof createCrmEventsHandler> | undefined;

export function handleCrmEventRequest(request: Request): Promise<HandlerResult> {
  shared ??= createCrmEventsHandler();
  return shared(request);
}
