// A CRM event as the company's CRM sends it to POST /api/crm/events: signed the Standard Webhooks way,
// written here apart from the site's own signing code so a mistake in that code cannot pass unseen.
import { createHmac } from 'node:crypto';
import { testCrmEventsSecret } from '../test-env';

/**
 * A request's headers and body for an event of this type, signed now with the test build's secret. Its
 * id is a fresh one unless given; the body's timestamp (when it happened) is now unless given.
 */
export function signedCrmEvent(
  type: string,
  data: Record<string, unknown>,
  {
    id = `msg_${Date.now()}_${Math.random().toString(36).slice(2)}`,
    happened = new Date(),
  }: { id?: string | undefined; happened?: Date | undefined } = {},
) {
  const body = JSON.stringify({ type, timestamp: happened.toISOString(), data });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(testCrmEventsSecret.slice('whsec_'.length), 'base64');
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
