import sharp from 'sharp';
import { outboxMessages } from '../support/outbox';
import { parseMail } from '../support/mail-message';
import { phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { routeRecaptcha } from './support/fake-recaptcha';
import { watchCspViolations } from './support/csp-violations';
import { expect, holdChunks, hydrated, landBeforeHydration, test, type Page } from './support/test';
import { testOutboxDir } from './test-env';

// A phone shows the contact form about a round trip before its script takes it over, and people start
// typing. Here the chunks are held back while the visitor types, ticks and chooses a photo, then let
// through: what the company receives is what the visitor entered, before and after.

const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });

function outboxMail(unique: string) {
  const raw = outboxMessages(testOutboxDir).find((message) => message.includes(unique));
  return raw ? parseMail(raw) : undefined;
}

async function send(page: Page) {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form(page).getByRole('button', { name: 'Send message' }).click();
  expect((await answered).status()).toBe(201);
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible();
}

test('a message typed and a phone photo chosen before the page hydrated are sent with what was typed after', async ({ page }) => {
  test.setTimeout(60_000);
  await routeRecaptcha(page);
  const release = await holdChunks(page);
  await landBeforeHydration(page, '/contact');
  const unique = `Before hydration ${Date.now()}`;
  await form(page).getByLabel(/^Name/).fill('Morag Before');
  await form(page)
    .getByLabel(/^Subject/)
    .fill(unique);
  const photo = withPhoneExif(await phonePhoto(31));
  await form(page)
    .getByLabel('Photos of the damage (optional)')
    .setInputFiles([{ name: 'IMG_3101.jpg', mimeType: 'image/jpeg', buffer: photo }]);

  await release();
  await hydrated(page);
  await expect(form(page).getByLabel(/^Name/)).toHaveValue('Morag Before');
  await expect(form(page).getByRole('list', { name: 'Photos to send' }).getByRole('listitem')).toHaveText([/IMG_3101\.jpg/]);
  await form(page)
    .getByLabel(/^Email/)
    .fill('morag.before@example.com');
  await form(page)
    .getByLabel(/^Message/)
    .fill('Typed after the page came to life.');
  await expect(form(page).getByLabel(/^Name/)).toHaveValue('Morag Before');
  await send(page);

  await expect.poll(() => outboxMail(unique), { timeout: 15_000 }).toBeTruthy();
  const mail = outboxMail(unique)!;
  expect(mail.text).toMatch(/^Name: +Morag Before$/m);
  expect(mail.text).toContain('Typed after the page came to life.');
  expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
  expect(await sharp(mail.attachments[0]!.content).metadata()).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
  expect(mail.text).toContain('(sent as "IMG_3101.jpg")');
});

test('a claim opened and answered before the page hydrated keeps its answers', async ({ page }) => {
  await routeRecaptcha(page);
  const release = await holdChunks(page);
  await landBeforeHydration(page, '/contact');
  const unique = `Claim before hydration ${Date.now()}`;
  await form(page).getByRole('checkbox', { name: 'This is about an insurance claim' }).check();
  await form(page).getByLabel('Type of damage', { exact: true }).selectOption({ label: 'Storm or weather damage' });
  await form(page).getByLabel('Postcode of the property', { exact: true }).fill('fk1 1aa');
  await form(page)
    .getByLabel(/^Message/)
    .fill('Slates came off before the page had its script.');

  await release();
  await hydrated(page);
  await form(page).getByLabel(/^Name/).fill('Morag Claim');
  await form(page)
    .getByLabel(/^Email/)
    .fill('morag.claim@example.com');
  await form(page)
    .getByLabel(/^Subject/)
    .fill(unique);
  await expect(form(page).getByLabel('Postcode of the property', { exact: true })).toHaveValue('fk1 1aa');
  await send(page);

  await expect.poll(() => outboxMail(unique), { timeout: 15_000 }).toBeTruthy();
  const mail = outboxMail(unique)!;
  expect(mail.subject).toContain('Storm or weather damage');
  expect(mail.text).toMatch(/^Postcode of the property: +FK1 1AA$/m);
  expect(mail.text).toContain('Slates came off before the page had its script.');
});

test('a draft kept on the device fills only the fields the visitor left empty before the page hydrated', async ({ page }) => {
  await page.goto('/contact');
  await form(page).getByLabel(/^Name/).fill('Name From The Draft');
  await form(page)
    .getByLabel(/^Email/)
    .fill('draft@example.com');
  // The draft is saved 300 ms after the last change.
  await expect
    .poll(() =>
      page.evaluate(() => Object.keys(localStorage).some((key) => (localStorage.getItem(key) ?? '').includes('draft@example.com'))),
    )
    .toBe(true);

  const release = await holdChunks(page);
  await landBeforeHydration(page, '/contact');
  await form(page).getByLabel(/^Name/).fill('Morag Typed Now');
  await release();
  await hydrated(page);
  await expect(form(page).getByLabel(/^Email/)).toHaveValue('draft@example.com');
  await expect(form(page).getByLabel(/^Name/)).toHaveValue('Morag Typed Now');
  await form(page)
    .getByLabel(/^Subject/)
    .fill('Still mine');
  await expect(form(page).getByLabel(/^Name/)).toHaveValue('Morag Typed Now');
});

// Send pressed before the page's JavaScript has run, with JavaScript on: the browser posts the form
// natively, and the page it lands on (rendered for this request) must come to life under its policy.

test('Send pressed before the page hydrated lands on /contact/sent, which hydrates with no CSP violation and moves by client-side links', async ({
  page,
}) => {
  const violations = await watchCspViolations(page);
  const release = await holdChunks(page);
  await landBeforeHydration(page, '/contact');
  await form(page).getByLabel(/^Name/).fill('Morag Quick');
  await form(page)
    .getByLabel(/^Email/)
    .fill('morag.quick@example.com');
  await form(page)
    .getByLabel(/^Subject/)
    .fill(`Quick press ${Date.now()}`);
  await form(page)
    .getByLabel(/^Message/)
    .fill('Pressed Send as soon as I had typed.');
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(page).toHaveURL(/\/contact\/sent\?reference=HC-/);
  await release();
  await hydrated(page);
  await expect(page.getByTestId('enquiry-reference')).toContainText(/HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/);
  expect(await violations.all()).toEqual([]);

  const document = await page.evaluate(() => performance.timeOrigin);
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => performance.timeOrigin)).toBe(document);
  expect(await violations.all()).toEqual([]);
});

test('a post refused before the page hydrated comes back as the form, which hydrates with no CSP violation and then sends', async ({
  page,
}) => {
  const violations = await watchCspViolations(page);
  await routeRecaptcha(page);
  const release = await holdChunks(page);
  await landBeforeHydration(page, '/contact');
  const unique = `Refused then sent ${Date.now()}`;
  await form(page).getByLabel(/^Name/).fill('Morag Refused');
  await form(page)
    .getByLabel(/^Subject/)
    .fill(unique);
  await form(page)
    .getByLabel(/^Message/)
    .fill('Forgot my e-mail address.');
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByRole('alert')).toContainText(/./);
  await release();
  await hydrated(page);
  expect(await violations.all()).toEqual([]);
  await expect(form(page).getByLabel(/^Name/)).toHaveValue('Morag Refused');
  await form(page)
    .getByLabel(/^Email/)
    .fill('morag.refused@example.com');
  await send(page);
  await expect.poll(() => outboxMail(unique), { timeout: 15_000 }).toBeTruthy();
  expect(outboxMail(unique)!.text).toMatch(/^Name: +Morag Refused$/m);
  expect(await violations.all()).toEqual([]);
});
