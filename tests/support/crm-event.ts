// A CRM event as the company's CRM sends it to POST /api/crm/events: signed the Standard Webhooks way,
// written here apart from the site's own signing code so a mistake in that code cannot pass unseen.
// Only node:crypto is imported, so the Playwright config can read the secret through tests/e2e/test-env.ts.
import { createHmac } from 'node:crypto';

/** The secret the CRM signs its events with in tests (whsec_ and base64); the test build's CRM_EVENTS_SECRET. */
export const testCrmEventsSecret = `whsec_${Buffer.from('homecare-test-crm-events-secret').toString('base64')}`;

export type CrmEventOptions = {
  /** The event's id (`webhook-id`): a fresh one unless given. */
  id?: string | undefined;
  /** When it happened, the body's `timestamp`: now unless given; a string is sent as written. */
  happened?: Date | string | undefined;
  /** When it was signed (ms), the `webhook-timestamp`: now unless given. */
  signedAt?: number | undefined;
  secret?: string | undefined;
  /** A body sent in place of the event's JSON (still signed), for a malformed one. */
  body?: string | undefined;
};

/** A request's headers and body (Playwright's `request.post` options) for an event of this type, signed. */
export function signedCrmEvent(type: string, data: Record<string, unknown>, options: CrmEventOptions = {}) {
  const {
    id = `msg_${Date.now()}_${Math.random().toString(36).slice(2)}`,
    happened = new Date(),
    signedAt = Date.now(),
    secret = testCrmEventsSecret,
  } = options;
  const body = options.body ?? JSON.stringify({ type, timestamp: typeof happened === 'string' ? happened : happened.toISOString(), data });
  const timestamp = String(Math.floor(signedAt / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    },
    data: body,
  };
}

/** The same event as the POST /api/crm/events request the route hands its handler. */
export function crmEventRequest(type: string, data: Record<string, unknown>, options: CrmEventOptions = {}): Request {
  const { headers, data: body } = signedCrmEvent(type, data, options);
  return new Request('http://127.0.0.1/api/crm/events', { method: 'POST', headers, body });
}
