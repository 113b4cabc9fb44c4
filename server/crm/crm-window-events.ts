import 'server-only';
import type { Client } from '@libsql/client';
import { business } from '@/content/business';
import { isSurveyWindowName, isWorkingDate, parseLocalDate, type SurveyWindowName } from '@/lib/survey-windows';
import { BLOCK_REASON_MAX, blockWindow, setWindowCapacity, WINDOW_CAPACITY_MAX } from '@/server/claims/survey-booking';
import { failure, type HandlerResult } from '@/server/base/http';

/** The types of the CRM's events about the company's survey windows rather than one claim. */
export const WINDOW_EVENT_TYPES = ['appointments.capacity', 'appointments.blocked'] as const;

type FieldError = { path: string; msg: string };
type WindowEvent =
  | { type: 'appointments.capacity'; fromDate: string; window: SurveyWindowName | null; capacity: number }
  | { type: 'appointments.blocked'; date: string; window: SurveyWindowName | null; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The window an event names: `am`, `pm`, or absent or null for both. */
function windowOf(data: Record<string, unknown>, errors: FieldError[]): SurveyWindowName | null {
  const window = data.window ?? null;
  if (window === null) return null;
  if (isSurveyWindowName(window)) return window;
  errors.push({ path: 'data.window', msg: 'must be "am", "pm" or null (both)' });
  return null;
}

/** A date field in the form 2026-12-01, or an error naming it. */
function dateOf(data: Record<string, unknown>, name: string, errors: FieldError[]): string {
  const value = data[name];
  if (typeof value === 'string' && parseLocalDate(value)) return value;
  errors.push({ path: `data.${name}`, msg: 'must be a date in the form 2026-12-01' });
  return '';
}

/**
 * An `appointments.capacity` event (`{from, window?, capacity}`: each window, or the one named, takes
 * `capacity` visits from that date on) or `appointments.blocked` (`{date, window?, reason}`: that working
 * day, or one window of it, is not offered); the same rules as `npm run appointments`.
 */
export function parseWindowEvent(body: unknown): WindowEvent | FieldError[] {
  if (!isRecord(body) || !isRecord(body.data)) return [{ path: 'data', msg: 'must be an object' }];
  const { data } = body;
  const errors: FieldError[] = [];
  const window = windowOf(data, errors);
  if (body.type === 'appointments.capacity') {
    const fromDate = dateOf(data, 'from', errors);
    const capacity = data.capacity;
    if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 0 || capacity > WINDOW_CAPACITY_MAX)
      errors.push({ path: 'data.capacity', msg: `must be a whole number of visits from 0 to ${WINDOW_CAPACITY_MAX}` });
    return errors.length > 0 ? errors : { type: body.type, fromDate, window, capacity: capacity as number };
  }
  const date = dateOf(data, 'date', errors);
  if (date && !isWorkingDate(parseLocalDate(date)!, business.openingHours))
    errors.push({ path: 'data.date', msg: 'must be a working day: no window is offered on it' });
  const reason = typeof data.reason === 'string' ? data.reason.trim() : '';
  if (!reason || reason.length > BLOCK_REASON_MAX)
    errors.push({ path: 'data.reason', msg: `must be text of 1 to ${BLOCK_REASON_MAX} characters` });
  return errors.length > 0 ? errors : { type: 'appointments.blocked', date, window, reason };
}

/**
 * Applies an `appointments.capacity` or `appointments.blocked` event once (its `webhook-id` kept with
 * what it set): 200 with `applied` (false for an event seen before) and, for a block, the visits booked
 * in it, which stay booked for the company to move; 400 naming each field that is wrong.
 */
export async function applyWindowEvent(body: unknown, eventId: string, client: Client, now: number): Promise<HandlerResult> {
  const event = parseWindowEvent(body);
  if (Array.isArray(event)) return failure(400, 'The event is not a change of the survey windows this site takes.', { errors: event });
  if (event.type === 'appointments.capacity') {
    const applied = await setWindowCapacity(client, { ...event, source: 'crm', now, eventId });
    return { status: 200, body: { success: true, applied } };
  }
  const { applied, booked } = await blockWindow(client, { ...event, source: 'crm', now, eventId });
  return { status: 200, body: { success: true, applied, bookedInIt: booked } };
}
