import { deadLinkText, statusText, trackLinkText, trackPage } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { parseMail } from '../support/mail-message';
import { outboxMessages } from '../support/outbox';
import { axe } from './support/axe';
import { linkPath, sentEnquiry } from './support/claims';
import { expect, test, type Page } from './support/test';
import { signedCrmEvent } from '../support/crm-event';
import { testOutboxDir, testSiteUrl } from './test-env';

// The claim after its enquiry, against the default test build: the look-up "Where's my repair?" by
// reference and e-mail (reached by a link, with and without JavaScript), the company's staff page by
// the link in its notification, and the customer's status page by its link (the acknowledgement's, also in the notification).

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

  // A forged link for the same claim changes no cookie: the page the customer has open still opens.
  const forged = `${status.slice(0, -2)}${status.endsWith('AA') ? 'BB' : 'AA'}`;
  const refused = await page.request.get(forged);
  expect(refused.headers()['set-cookie']).toBeUndefined();
  await page.goto(forged);
  await expect(page).toHaveURL(new RegExp(`/claims/${sent.reference}$`));
  await expect(page.getByTestId('claim-stage')).toHaveText('Survey booked');
  await page.context().clearCookies();
  await page.goto(forged);
  await expect(page.getByTestId('claim-link-refused')).toContainText(deadLinkText.status);
});

test('the CRM moves a claim by a signed event, once per event id; the customer’s link shows it', async ({ page, request }) => {
  const sent = await sentEnquiry(request, `crm-${Date.now()}`);
  const id = `msg_${Date.now()}`;
  const event = signedCrmEvent(
    'claim.updated',
    { reference: sent.reference, stage: 'works-booked', date: '2027-01-11', waitingOn: 'us', note: 'Joiner booked.' },
    { id },
  );
  const applied = await request.post(`${testSiteUrl}/api/crm/events`, event);
  expect(applied.status()).toBe(200);
  expect(await applied.json()).toEqual({ success: true, applied: true, current: true });
  const again = await request.post(`${testSiteUrl}/api/crm/events`, event);
  expect(await again.json()).toEqual({ success: true, applied: false });
  const forged = await request.post(`${testSiteUrl}/api/crm/events`, { ...event, data: event.data.replace('works-booked', 'completed') });
  expect(forged.status()).toBe(401);

  await page.goto(linkPath(sent.notification, '/track/'));
  await expect(page.getByTestId('claim-stage')).toHaveText('Works booked');
  await expect(page.getByTestId('claim-timeline').getByRole('listitem')).toHaveCount(2);
  await expect(page.getByTestId('claim-timeline')).toContainText('Joiner booked.');
});

test('events out of order: the CRM’s late retry of an earlier event is kept in the history and moves nothing back', async ({
  page,
  request,
}) => {
  const sent = await sentEnquiry(request, `crm-order-${Date.now()}`);
  const post = (data: Record<string, unknown>, id: string, happened?: Date) =>
    request.post(
      `${testSiteUrl}/api/crm/events`,
      signedCrmEvent('claim.updated', { reference: sent.reference, ...data }, { id, happened }),
    );
  const unique = Date.now();
  const booked = await post({ stage: 'survey-booked', date: '2027-01-12', note: 'Surveyor on Tuesday.' }, `msg_booked_${unique}`);
  expect(await booked.json()).toEqual({ success: true, applied: true, current: true });
  // The CRM's late retry of `contacted`: signed now, its timestamp two minutes older.
  const twoMinutesAgo = new Date(Date.now() - 2 * 60_000);
  const late = await post({ stage: 'contacted', date: '2027-01-05', note: 'We rang you.' }, `msg_contacted_${unique}`, twoMinutesAgo);
  expect(late.status()).toBe(200);
  expect(await late.json()).toEqual({ success: true, applied: true, current: false });

  await page.goto(linkPath(sent.notification, '/track/'));
  await expect(page.getByTestId('claim-stage')).toHaveText('Survey booked');
  await expect(page.getByTestId('claim-status')).toContainText('12 January 2027');
  await expect(page.getByTestId('claim-status')).not.toContainText('5 January 2027');
  // Newest first, each at the time it happened.
  const history = page.getByTestId('claim-timeline').getByRole('listitem');
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toContainText('Survey booked');
  await expect(history.nth(1)).toContainText('Contacted');
  await expect(history.nth(1)).toContainText('We rang you.');
  await expect(history.nth(1).locator('time')).toHaveAttribute('datetime', twoMinutesAgo.toISOString());
  await expect(history.nth(2)).toContainText('Received');

  // The customer's e-mails go in the order they were queued: once the next change's has gone, any for
  // the late event would have gone before it.
  await post({ stage: 'surveyed' }, `msg_surveyed_${unique}`);
  const subjects = () =>
    outboxMessages(testOutboxDir)
      .map((raw) => parseMail(raw).subject)
      .filter((subject) => subject.startsWith(`Your repair ${sent.reference}: `));
  await expect.poll(subjects).toContain(`Your repair ${sent.reference}: Surveyed (Example Homecare)`);
  expect(subjects()).toEqual([
    `Your repair ${sent.reference}: Survey booked (Example Homecare)`,
    `Your repair ${sent.reference}: Surveyed (Example Homecare)`,
  ]);
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
