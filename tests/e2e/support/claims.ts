// What the claim tests share: an enquiry sent through the API, the company's notification of it (an
// .eml in the test build's outbox), which carries the staff link and the customer's status link, and
// the path of such a link.
import { parseMail } from '../../support/mail-message';
import { outboxMessages } from '../../support/outbox';
import { testOutboxDir, testSiteUrl } from '../test-env';
import { expect, type APIRequestContext } from './test';

/**
 * An enquiry sent through the API (`unique` makes its e-mail address and subject its own; `fields` over
 * the form's), and the company's notification the outbox wrote for it, which carries the staff link and
 * the customer's status link (the acknowledgement's link is the same: server/claims/claim-pages.test.ts;
 * the test build caps acknowledgements per hour). `site` and `outboxDir`: another server of the test
 * build, started by the test with a database and outbox of its own.
 */
export async function sentEnquiry(
  request: APIRequestContext,
  unique: string,
  fields: Record<string, string> = {},
  { site = testSiteUrl, outboxDir = testOutboxDir }: { site?: string; outboxDir?: string } = {},
) {
  const email = `${unique}@example.com`;
  const answer = await request.post(`${site}/api/contact`, {
    headers: { Origin: site },
    data: {
      name: 'Morag Claim',
      email,
      phone: '',
      subject: `Ceiling down ${unique}`,
      message: 'Water came through the ceiling.',
      ...fields,
    },
  });
  expect(answer.status()).toBe(201);
  const { reference } = (await answer.json()) as { reference: string };
  return { reference, email, notification: await companyNotification(reference, outboxDir) };
}

/**
 * The text of the company's notification of the enquiry with this reference, once the outbox (the test
 * build's, unless said) has written it.
 */
export async function companyNotification(reference: string, outboxDir = testOutboxDir): Promise<string> {
  let notification = '';
  await expect
    .poll(() => {
      notification =
        outboxMessages(outboxDir)
          .map((raw) => parseMail(raw).text)
          .find((text) => text.includes(reference) && text.includes('Update the repair’s status')) ?? '';
      return notification !== '';
    })
    .toBe(true);
  return notification;
}

/** The path of the signed link in an e-mail (the test build's SITE_URL is not the address it serves on). */
export function linkPath(text: string, prefix: string): string {
  const found = new RegExp(`https?://[^/\\s]+(${prefix}[A-Za-z0-9._-]+)`).exec(text)?.[1];
  expect(found, `a ${prefix} link`).toBeTruthy();
  return found!;
}

/** A `datetime-local` value on the London clock, as the staff page's fields take it. */
export function londonLocal(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}
