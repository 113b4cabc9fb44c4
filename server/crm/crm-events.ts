import 'server-only';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { NOTE_MAX, isClaimStage, isWaitingOn } from '@/lib/claim-stages';
import { isCalendarDate } from '@/lib/contact-fields';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { config } from '@/server/config.mjs';
import { recordStageChange, type StageChange } from '@/server/claims/claim-status';
import { verifyWebhook, webhookKey } from '@/server/crm/standard-webhooks';
import { getDb, orm } from '@/server/db';
import { enquiries } from '@/server/db-schema';
import { failure, readCappedText, type HandlerResult } from '@/server/http';

/** A claim event is a few hundred bytes; a note at its longest is 4 KB of UTF-8. */
const EVENT_MAX_BYTES = 16 * 1024;

type FieldError = { path: string; msg: string };
type ClaimUpdate = { reference: string; at: number; change: Omit<StageChange, 'source' | 'eventId' | 'at'> };

/** An ISO 8601 date and time with its offset from UTC (`Z` or `±hh:mm`): one without is ambiguous. */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
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
  const { reference, stage, date, waitingOn, note } = data;
  if (!isEnquiryReference(reference)) errors.push({ path: 'data.reference', msg: 'must be a reference like HC-ABC-DEF' });
  if (!isClaimStage(stage)) errors.push({ path: 'data.stage', msg: 'must be one of the stages (lib/claim-stages.ts)' });
  if (date !== undefined && (typeof date !== 'string' || !isCalendarDate(date)))
    errors.push({ path: 'data.date', msg: 'must be a date, YYYY-MM-DD' });
  if (waitingOn !== undefined && !isWaitingOn(waitingOn))
    errors.push({ path: 'data.waitingOn', msg: 'must be "us", "insurer" or "customer"' });
  if (note !== undefined && (typeof note !== 'string' || note.length > NOTE_MAX))
    errors.push({ path: 'data.note', msg: `must be text of at most ${NOTE_MAX} characters` });
  if (errors.length > 0 || !isEnquiryReference(reference) || !isClaimStage(stage)) return errors;
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
  };
}

export type CrmEventsDeps = { secret?: string | null; db?: () => Promise<Client>; now?: () => number };

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
  const db = deps.db ?? getDb;
  const now = deps.now ?? Date.now;

  return async function handleCrmEvent(request: Request): Promise<HandlerResult> {
    if (!key) return failure(404, 'Not found');
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

    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return failure(400, 'The body is not JSON.', { errors: [{ path: 'body', msg: 'must be JSON' }] });
    }
    const update = parseClaimUpdate(parsed);
    if (Array.isArray(update)) return failure(400, 'The event is not a claim update this site takes.', { errors: update });
    // Sent after it happened: an event's time is not later than its signature's (whole seconds, so within one).
    if (update.at >= (verified.timestamp + 1) * 1000)
      return failure(400, 'The event is not a claim update this site takes.', {
        errors: [{ path: 'timestamp', msg: 'must not be later than the webhook-timestamp it is signed with' }],
      });

    const client = await db();
    const id = enquiryIdOf(update.reference);
    const [known] = await orm(client)
      .select({ id: enquiries.id, receivedMs: enquiries.receivedMs })
      .from(enquiries)
      .where(eq(enquiries.id, id));
    if (!known) return failure(404, `No claim has the reference ${update.reference}.`);
    if (update.at < known.receivedMs - CLOCK_SKEW_MS)
      return failure(400, 'The event is not a claim update this site takes.', {
        errors: [{ path: 'timestamp', msg: 'must not be before the claim was received' }],
      });
    const outcome = await recordStageChange(client, id, { ...update.change, at: update.at, source: 'crm', eventId: verified.id }, now());
    return {
      status: 200,
      body:
        outcome === 'already-applied'
          ? { success: true, applied: false }
          : { success: true, applied: true, current: outcome === 'current' },
    };
  };
}

let shared: ReturnType<typeof createCrmEventsHandler> | undefined;

export function handleCrmEventRequest(request: Request): Promise<HandlerResult> {
  shared ??= createCrmEventsHandler();
  return shared(request);
}
