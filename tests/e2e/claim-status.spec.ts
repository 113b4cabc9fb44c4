import { deadLinkText, statusText, staffPage, trackLinkText, trackPage } from '@/content/claims';
import { parseMail } from '../support/mail-message';
import { outboxMessages } from '../support/outbox';
import { axe } from './support/axe';
import { companyNotification, linkPath } from './support/claims';
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { createHmac } from 'node:crypto';
import { testCrmEventsSecret, testOutboxDir, testSiteUrl } from './test-env';

// The claim after its enquiry, against the default test build: the look-up "Where's my repair?" by
// reference and e-mail (reached by a link, with and without JavaScript), the company's staff page by
// the link in its notification, and the customer's status page by its link (the acknowledgement's, also in the notification).

type Sent = { reference: string; email: string; notification: string };

/**
 * An enquiry sent through the API, and the company's notification the outbox wrote for it, which
 * carries the staff link and the customer's status link (the acknowledgement's link is the same:
 * server/claims/claim-pages.test.ts; this build caps acknowledgements per hour).
 */
async function sentEnquiry(request: APIRequestContext, unique: string): Promise<Sent> {
  const email = `${unique}@example.com`;
  const answer = await request.post(`${testSiteUrl}/api/contact`, {
    headers: { Origin: testSiteUrl },
    data: { name: 'Morag Claim', email, phone: '', subject: `Ceiling down ${unique}`, message: 'Water came through the ceiling.' },
  });
  expect(answer.status()).toBe(201);
  const { reference } = (await answer.json()) as { reference: string };
  const notification = await companyNotification(reference);
  return { reference, email, notification };
}

async function lookUp(page: Page, reference: string, email: string) {
  const form = page.getByTestId('claim-look-up');
  await form.getByLabel(trackPage.labels.reference).fill(reference);
  await form.getByLabel(trackPage.labels.email).fill(email);
  await form.getByRole('button', { name: trackPage.submit }).click();
}

test('from the contact page by its link: the look-up shows the claim’s stage, with nothing typed in the address', async ({
  page,
  request,
}) => {
  const sent = await sentEnquiry(request, `track-${Date.now()}`);
  await page.goto('/contact');
  await page.getByRole('link', { name: trackLinkText.label }).click();
  await expect(page).toHaveURL(/\/track$/);
  await expect(page.getByRole('heading', { level: 1, name: trackPage.title })).toBeVisible();

  await lookUp(page, sent.reference.toLowerCase(), 'nobody@example.com');
  await expect(page.getByTestId('claim-look-up').getByRole('alert')).toHaveText(trackPage.notFound);

  await lookUp(page, sent.reference.toLowerCase(), sent.email.toUpperCase());
  await expect(page.getByRole('heading', { name: statusText.heading(sent.reference) })).toBeVisible();
  await expect(page.getByTestId('claim-stage')).toHaveText('Received');
  expect(new URL(page.url()).search).toBe('');
  await expect(page.getByTestId('claim-status')).not.toContainText('Morag');
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
});

test('the staff link: opening it changes nothing, Save does; the customer’s link then shows the new stage and the note', async ({
  page,
  request,
}) => {
  const sent = await sentEnquiry(request, `staff-${Date.now()}`);
  const staff = linkPath(sent.notification, '/claim-update/');
  const status = linkPath(sent.notification, '/track/');

  // A mail scanner opens every link: a GET is never a change.
  expect((await request.get(`${testSiteUrl}${staff}`)).status()).toBe(200);
  await page.goto(status);
  await expect(page.getByTestId('claim-stage')).toHaveText('Received');

  const staffResponse = await page.goto(staff);
  expect(staffResponse?.headers()).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  await expect(page).toHaveURL(new RegExp(`/claims/${sent.reference}/update$`));
  await expect(page.getByText(`For claim ${sent.reference}.`, { exact: false })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('Morag');
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  const form = page.getByTestId('staff-update');
  await form.getByLabel(staffPage.labels.stage).selectOption('survey-booked');
  await form.getByLabel(staffPage.labels.nextDate).fill('2026-12-02');
  await form.getByRole('radio', { name: 'Us', exact: true }).check();
  await form.getByLabel(staffPage.labels.note).fill('Our surveyor will call on Wednesday morning.');
  await form.getByRole('button', { name: staffPage.submit }).click();
  await expect(form.getByRole('status')).toHaveText(staffPage.saved('Survey booked'));
  // The customer is told, once, with the stage and the company's note.
  const told = () =>
    outboxMessages(testOutboxDir)
      .map((raw) => parseMail(raw))
      .filter((mail) => mail.subject === `Your repair ${sent.reference}: Survey booked (Example Homecare)`);
  await expect.poll(() => told().length).toBe(1);
  expect(told()[0]!.text).toContain('Our surveyor will call on Wednesday morning.');

  const response = await page.goto(status);
  expect(response?.headers()).toMatchObject({
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex, nofollow',
  });
  await expect(page).toHaveURL(new RegExp(`/claims/${sent.reference}$`));
  await expect(page.getByTestId('claim-stage')).toHaveText('Survey booked');
  await expect(page.getByTestId('claim-timeline')).toContainText('Our surveyor will call on Wednesday morning.');
  await expect(page.getByTestId('claim-status')).toContainText('2 December 2026');
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  const forged = `${status.slice(0, -2)}${status.endsWith('AA') ? 'BB' : 'AA'}`;
  await page.goto(forged);
  await expect(page.getByTestId('claim-link-refused')).toContainText(deadLinkText.status);
});

/** A claim event signed as the Standard Webhooks scheme says (written here again, apart from the site's own code). */
function signedEvent(data: Record<string, unknown>, id: string) {
  const body = JSON.stringify({ type: 'claim.updated', timestamp: new Date().toISOString(), data });
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

test('the CRM moves a claim by a signed event, once per event id; the customer’s link shows it', async ({ page, request }) => {
  const sent = await sentEnquiry(request, `crm-${Date.now()}`);
  const id = `msg_${Date.now()}`;
  const event = signedEvent(
    { reference: sent.reference, stage: 'works-booked', date: '2027-01-11', waitingOn: 'us', note: 'Joiner booked.' },
    id,
  );
  const applied = await request.post(`${testSiteUrl}/api/crm/events`, event);
  expect(applied.status()).toBe(200);
  expect(await applied.json()).toEqual({ success: true, applied: true });
  const again = await request.post(`${testSiteUrl}/api/crm/events`, event);
  expect(await again.json()).toEqual({ success: true, applied: false });
  const forged = await request.post(`${testSiteUrl}/api/crm/events`, { ...event, data: event.data.replace('works-booked', 'completed') });
  expect(forged.status()).toBe(401);

  await page.goto(linkPath(sent.notification, '/track/'));
  await expect(page.getByTestId('claim-stage')).toHaveText('Works booked');
  await expect(page.getByTestId('claim-timeline').getByRole('listitem')).toHaveCount(2);
  await expect(page.getByTestId('claim-timeline')).toContainText('Joiner booked.');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the look-up posts itself and shows the status; a wrong address is told plainly', async ({ page, request }) => {
    const sent = await sentEnquiry(request, `nojs-${Date.now()}`);
    await page.goto('/track');
    await lookUp(page, sent.reference, 'wrong@example.com');
    await expect(page.getByText(trackPage.notFound)).toBeVisible();
    await lookUp(page, sent.reference, sent.email);
    await expect(page.getByTestId('claim-stage')).toHaveText('Received');
    expect(new URL(page.url()).pathname).toBe('/track');
    expect(new URL(page.url()).search).toBe('');
  });

  test('the staff page saves without JavaScript too', async ({ page, request }) => {
    const sent = await sentEnquiry(request, `nojs-staff-${Date.now()}`);
    await page.goto(linkPath(sent.notification, '/claim-update/'));
    const form = page.getByTestId('staff-update');
    await form.getByLabel(staffPage.labels.stage).selectOption('contacted');
    await form.getByRole('button', { name: staffPage.submit }).click();
    await expect(page.getByText(staffPage.saved('Contacted'))).toBeVisible();
    await page.goto(linkPath(sent.notification, '/track/'));
    await expect(page.getByTestId('claim-stage')).toHaveText('Contacted');
  });
});
