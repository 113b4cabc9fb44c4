import { outboxMessages } from '../support/outbox';
import { expect, test, type Page } from './support/test';
import sharp from 'sharp';
import { parseMail } from '../support/mail-message';
import { heicBytes, pdfBytes, phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { axe } from './support/axe';
import { routeRecaptcha } from './support/fake-recaptcha';
import { testOutboxDir } from './test-env';

// Damage photos on the contact form, against the default test build: chosen, shown,
// removed, refused, sent; the company's notification (an .eml in the outbox) carries them re-encoded.

const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });
const photoInput = (page: Page) => form(page).getByLabel('Photos of the damage (optional)');
const photoList = (page: Page) => form(page).getByRole('list', { name: 'Photos to send' });

async function fillText(page: Page, subject: string) {
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
}

const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/jpeg', buffer });

let bigPhoto: Buffer;
test.beforeAll(async () => {
  bigPhoto = withPhoneExif(await phonePhoto(11));
});

function outboxMail(unique: string) {
  const raw = outboxMessages(testOutboxDir).find((message) => message.includes(unique));
  return raw ? parseMail(raw) : undefined;
}

test('a phone photo and a second one: thumbnails with names and sizes, one removed by keyboard, the other arrives re-encoded with the enquiry', async ({
  page,
}) => {
  await routeRecaptcha(page);
  await page.goto('/contact');
  const unique = `Photos ${Date.now()}`;
  await fillText(page, unique);
  await photoInput(page).setInputFiles([
    jpeg('IMG_0001.jpg', bigPhoto),
    jpeg('IMG_0002.jpg', await phonePhoto(12, { width: 800, height: 600 })),
  ]);
  const items = photoList(page).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('IMG_0001.jpg');
  await expect(items.nth(0)).toContainText(`${(bigPhoto.length / 1_000_000).toFixed(1)} MB`);
  await expect(items.nth(1)).toContainText('IMG_0002.jpg');
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  const remove = form(page).getByRole('button', { name: 'Remove IMG_0002.jpg' });
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(items).toHaveCount(1);
  await expect(photoInput(page)).toBeFocused();

  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form(page).getByRole('button', { name: 'Send message' }).click();
  const response = await answered;
  expect(response.status()).toBe(201);
  expect(response.request().headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible();
  await expect(photoList(page)).toHaveCount(0);

  await expect.poll(() => outboxMail(unique), { timeout: 10_000 }).toBeTruthy();
  const mail = outboxMail(unique)!;
  expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
  const metadata = await sharp(mail.attachments[0]!.content).metadata();
  expect(metadata).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
  expect(metadata.exif).toBeUndefined();
  expect(mail.text).toContain('(sent as "IMG_0001.jpg")');
});

test('files the form can judge are not added, and it says which and why; a seventh is refused', async ({ page }) => {
  await page.goto('/contact');
  const error = form(page).locator('#contact-photos-error');
  await photoInput(page).setInputFiles([jpeg('huge.jpg', Buffer.alloc(12_000_000, 1))]);
  await expect(error).toHaveText('“huge.jpg” is larger than 10 MB. Please choose a smaller photo.');
  await expect(photoInput(page)).toHaveAccessibleDescription(/is larger than 10 MB/);
  await photoInput(page).setInputFiles([{ name: 'IMG_4711.HEIC', mimeType: 'image/heic', buffer: heicBytes() }]);
  await expect(error).toContainText('“IMG_4711.HEIC” is a HEIC photo, which we cannot open.');
  await expect(photoList(page)).toHaveCount(0);

  const small = await phonePhoto(13, { width: 320, height: 240 });
  await photoInput(page).setInputFiles(Array.from({ length: 7 }, (_, index) => jpeg(`p${index + 1}.jpg`, small)));
  await expect(photoList(page).getByRole('listitem')).toHaveCount(6);
  await expect(error).toHaveText('You can send up to 6 photos.');
  await expect(photoInput(page)).toBeDisabled();
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
});

test('a photo the server refuses (a PDF named .jpg): the message names it, focus goes to the photos, and nothing typed is lost', async ({
  page,
}) => {
  await routeRecaptcha(page);
  await page.goto('/contact');
  await fillText(page, `Refused ${Date.now()}`);
  await form(page).getByRole('checkbox', { name: 'This is about an insurance claim' }).check();
  await form(page).getByLabel('Postcode of the property', { exact: true }).fill('G67 1AB');
  await photoInput(page).setInputFiles([jpeg('scan.jpg', pdfBytes())]);
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form(page).getByRole('button', { name: 'Send message' }).click();
  expect((await answered).status()).toBe(422);
  await expect(form(page).locator('#contact-photos-error')).toHaveText(
    '“scan.jpg” is not a photo we can open. Please send JPEG, PNG or WebP photos.',
  );
  await expect(form(page).getByRole('alert')).toHaveText('Please correct the highlighted fields.');
  await expect(photoInput(page)).toBeFocused();
  await expect(form(page).getByLabel(/^Message/)).toHaveValue('Water came through the kitchen ceiling overnight.');
  await expect(form(page).getByLabel('Postcode of the property', { exact: true })).toHaveValue('G67 1AB');
  await expect(photoList(page).getByRole('listitem')).toHaveCount(1);
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  // Removing it and sending again works.
  await form(page).getByRole('button', { name: 'Remove scan.jpg' }).click();
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible();
});
