import { outboxMessages } from '../support/outbox';
import { parseMail } from '../support/mail-message';
import { expect, test, type Page } from './support/test';
import { axe } from './support/axe';
import { routeRecaptcha } from './support/fake-recaptcha';
import { testOutboxDir } from './test-env';

// What would help us work with the person, asked in the claim part of the form on a phone: clean under
// axe with the part open, sent with and without JavaScript, and first in the company's notification.

const phone = { width: 375, height: 812 };
const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });
const supportGroup = (page: Page) => form(page).getByRole('group', { name: 'Would anything help us work with you? (optional)' });
const NEEDS = 'I use a wheelchair: please use the side door.\nSpeak to my daughter Ann, not after 6pm.';

function notificationOf(unique: string) {
  return outboxMessages(testOutboxDir)
    .filter((raw) => raw.includes(unique))
    .map((raw) => parseMail(raw));
}

/** Fills the message, opens the claim part and answers the support question. */
async function fillWithSupportNeeds(page: Page, subject: string) {
  await form(page).getByLabel(/^Name/).fill('Jo Bloggs');
  await form(page)
    .getByLabel(/^Email/)
    .fill('jo@example.com');
  await form(page)
    .getByLabel(/^Subject/)
    .fill(subject);
  await form(page)
    .getByLabel(/^Message/)
    .fill('Water came through the kitchen ceiling overnight.');
  await form(page).getByRole('checkbox', { name: 'This is about an insurance claim' }).check();
  await expect(supportGroup(page)).toBeVisible();
  await supportGroup(page).getByRole('checkbox', { name: 'No phone calls, please' }).check();
  await supportGroup(page).getByRole('textbox', { name: 'What would help' }).fill(NEEDS);
}

async function expectNotificationStartsWithSupportNeeds(unique: string) {
  await expect.poll(() => notificationOf(unique).length, { timeout: 10_000 }).toBe(1);
  const mail = notificationOf(unique)[0]!;
  expect(mail.text.split('\n').slice(0, 5)).toEqual([
    'SUPPORT NEEDS',
    'No phone calls, please.',
    'What would help: I use a wheelchair: please use the side door.',
    '                 Speak to my daughter Ann, not after 6pm.',
    '',
  ]);
}

test('on a phone: the support question is clean under axe with the claim part open, and heads the notification', async ({ page }) => {
  await page.setViewportSize(phone);
  await routeRecaptcha(page);
  await page.goto('/contact');
  await form(page).getByRole('checkbox', { name: 'This is about an insurance claim' }).check();
  await expect(supportGroup(page)).toBeVisible();
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  await form(page).getByRole('checkbox', { name: 'This is about an insurance claim' }).uncheck();

  const unique = `Support needs ${Date.now()}`;
  await fillWithSupportNeeds(page, unique);
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByRole('status').locator('p').first()).toHaveText('Your message has been sent successfully!');
  await expectNotificationStartsWithSupportNeeds(unique);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('on a phone: the support needs are posted with the claim part and head the notification', async ({ page }) => {
    await page.setViewportSize(phone);
    await page.goto('/contact');
    const unique = `Support needs without script ${Date.now()}`;
    await fillWithSupportNeeds(page, unique);
    const posted = page.waitForResponse((response) => response.request().method() === 'POST');
    await form(page).getByRole('button', { name: 'Send message' }).click();
    expect((await posted).status()).toBe(303);
    await expect(page).toHaveURL(/\/contact\/sent\?reference=HC-/);
    await expectNotificationStartsWithSupportNeeds(unique);
  });
});
