import sharp from 'sharp';
import { statusText, trackLinkText, trackPage } from '@/content/claims';
import { laterPhotosRetiredPage, laterPhotosText } from '@/content/later-photos';
import { STAFF_LINK_PREFIX, STATUS_LINK_PREFIX, claimStatusPath, laterPhotosPath } from '@/lib/claim-paths.mjs';
import { PHOTO_FIELD } from '@/lib/contact-fields';
import { parseMail } from '../support/mail-message';
import { outboxMessages } from '../support/outbox';
import { phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { axe } from './support/axe';
import { companyNotification, linkPath } from './support/claims';
import { outboxFinished } from './support/database';
import { routeRecaptcha } from './support/fake-recaptcha';
import { expect, test, type APIRequestContext } from './support/test';
import { testBuildEnv, testOutboxDir, testSiteUrl } from './test-env';

// More photos on the same reference, against the default test build: from the contact form's success
// message to "Where's my repair?" with the reference filled in, the look-up, and a phone photo added
// from the status (re-encoded, its EXIF gone, one "More photos for HC-…" to the company); and the
// same by the status link without JavaScript. The photos go under the status page, opened by its
// cookie: neither the page nor the post's address carries a link's token.

const followUps = (reference: string) =>
  outboxMessages(testOutboxDir)
    .map((raw) => parseMail(raw))
    .filter((mail) => mail.subject === `More photos for ${reference}`);

/** The tokens of the claim's two signed links, from the company's notification. */
async function linkTokens(reference: string) {
  const notification = await companyNotification(reference);
  return [STATUS_LINK_PREFIX, STAFF_LINK_PREFIX].map((prefix) => linkPath(notification, prefix).slice(prefix.length));
}

async function enquiryByApi(request: APIRequestContext, unique: string) {
  const answer = await request.post(`${testSiteUrl}/api/contact`, {
    headers: { Origin: testSiteUrl },
    data: { name: 'Morag Photos', email: `${unique}@example.com`, phone: '', subject: `Leak ${unique}`, message: 'Water under the sink.' },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { reference: string }).reference;
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('from the success message to the look-up with the reference filled in, then a phone photo added to the claim', async ({ page }) => {
    await routeRecaptcha(page);
    await page.goto('/contact');
    const unique = `later-${Date.now()}`;
    const form = page.getByRole('form', { name: 'Send us a message' });
    await form.getByLabel(/^Name/).fill('Jo Bloggs');
    await form.getByLabel(/^Email/).fill(`${unique}@example.com`);
    await form.getByLabel(/^Subject/).fill(`Ceiling ${unique}`);
    await form.getByLabel(/^Message/).fill('Water came through the kitchen ceiling overnight.');
    await form.getByRole('button', { name: 'Send message' }).click();
    const reference = (await form.getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
    expect(reference).toMatch(/^HC-/);

    await form.getByRole('link', { name: trackLinkText.label }).click();
    await expect(page).toHaveURL(new RegExp(`/track#${reference}$`));
    const lookUp = page.getByTestId('claim-look-up');
    await expect(lookUp.getByLabel(trackPage.labels.reference)).toHaveValue(reference);
    await lookUp.getByLabel(trackPage.labels.email).fill(`${unique}@example.com`);
    await lookUp.getByRole('button', { name: trackPage.submit }).click();
    await expect(page.getByRole('heading', { name: statusText.heading(reference) })).toBeVisible();

    const add = page.getByTestId('add-photos');
    await add
      .getByLabel(laterPhotosText.label)
      .setInputFiles([{ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: withPhoneExif(await phonePhoto(41)) }]);
    await expect(add.getByRole('list', { name: 'Photos to send' }).getByRole('listitem')).toHaveCount(1);
    expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
    const tokens = await linkTokens(reference);
    expect(tokens).toHaveLength(2);
    const shown = await page.content();
    expect(shown).toContain(laterPhotosPath(reference));
    for (const token of tokens) expect(shown).not.toContain(token);
    const answered = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes('/photos'));
    await add.getByRole('button', { name: laterPhotosText.submit }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    expect(new URL(answer.url()).pathname).toBe(laterPhotosPath(reference));
    for (const token of tokens) expect(answer.url()).not.toContain(token);
    await expect(add.getByTestId('add-photos-notice')).toHaveText(laterPhotosText.added(1, reference));
    await expect(add.getByRole('list', { name: 'Photos to send' })).toHaveCount(0);
    expect(new URL(page.url()).search).toBe('');

    await companyNotification(reference);
    await expect.poll(() => followUps(reference).length, { timeout: 10_000 }).toBe(1);
    const [mail] = followUps(reference);
    expect(mail!.attachments).toHaveLength(1);
    const metadata = await sharp(mail!.attachments[0]!.content).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
    expect(metadata.exif).toBeUndefined();
    expect(mail!.text).toContain('(sent as "IMG_2041.jpg")');
    // Exactly once: when the outbox has finished every job of the enquiry (it claims only pending
    // ones), a second follow-up would already be here.
    await outboxFinished(testBuildEnv.DATABASE_URL!, { reference });
    expect(followUps(reference)).toHaveLength(1);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the status link’s form sends the photos and the status page says so; a file that is not a photo is refused plainly', async ({
    page,
    request,
  }) => {
    const reference = await enquiryByApi(request, `later-nojs-${Date.now()}`);
    const status = linkPath(await companyNotification(reference), STATUS_LINK_PREFIX);
    const tokens = await linkTokens(reference);
    await page.goto(status);
    await expect(page).toHaveURL(claimStatusPath(reference));
    // The status page as the server sends it (its cookie goes along): the form posts under it, and no
    // link's token is anywhere in it.
    const html = await (await page.request.get(claimStatusPath(reference))).text();
    expect(html).toContain('data-testid="claim-stage"');
    expect(html).toContain(`action="${laterPhotosPath(reference)}"`);
    for (const token of tokens) expect(html).not.toContain(token);
    const add = page.getByTestId('add-photos');
    await add
      .getByLabel(laterPhotosText.label)
      .setInputFiles([{ name: 'scan.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('%PDF-1.7\n%%EOF\n') }]);
    const refused = page.waitForResponse((response) => response.request().method() === 'POST');
    await add.getByRole('button', { name: laterPhotosText.submit }).click();
    expect((await refused).status()).toBe(303);
    expect(new URL((await refused).url()).pathname).toBe(laterPhotosPath(reference));
    await expect(page).toHaveURL(`${claimStatusPath(reference)}?photos=not-a-photo`);
    await expect(page.getByTestId('add-photos-notice')).toHaveText(laterPhotosText.outcomes['not-a-photo']);

    await add
      .getByLabel(laterPhotosText.label)
      .setInputFiles([{ name: 'IMG_2042.jpg', mimeType: 'image/jpeg', buffer: withPhoneExif(await phonePhoto(42)) }]);
    await add.getByRole('button', { name: laterPhotosText.submit }).click();
    await expect(page).toHaveURL(`${claimStatusPath(reference)}?photos=added&count=1`);
    await expect(page.getByTestId('add-photos-notice')).toHaveText(laterPhotosText.added(1, reference));
    await expect.poll(() => followUps(reference).length, { timeout: 10_000 }).toBe(1);
    expect((await sharp(followUps(reference)[0]!.attachments[0]!.content).metadata()).exif).toBeUndefined();
  });
});

test('over HTTP: the photos are opened by the status page’s cookie at the address by reference, never by a token', async ({
  playwright,
  request,
}) => {
  const reference = await enquiryByApi(request, `later-http-${Date.now()}`);
  const [statusToken] = await linkTokens(reference);
  const target = `${testSiteUrl}${laterPhotosPath(reference)}`;
  const photo = async (seed: number) => ({
    multipart: {
      [PHOTO_FIELD]: { name: `IMG_${seed}.jpg`, mimeType: 'image/jpeg', buffer: await phonePhoto(seed, { width: 64, height: 48 }) },
    },
  });
  const scripted = { Origin: testSiteUrl, Accept: 'application/json' };

  // No cookie: nothing opens the claim (the reference alone is no key).
  const bare = await request.post(target, { headers: scripted, ...(await photo(61)) });
  expect(bare.status()).toBe(404);
  expect(await bare.json()).toMatchObject({ success: false, message: statusText.notFound });
  // The old address with the status token in it is answered, from a page left open since, without a
  // byte of the photos read.
  const old = await request.post(`${testSiteUrl}/api/claims/photos/${statusToken}`, { headers: scripted, ...(await photo(62)) });
  expect(old.status()).toBe(410);
  expect(await old.json()).toEqual({ success: false, message: laterPhotosRetiredPage.text, reason: 'not-found' });

  // The status link traded for its cookie (as a browser opening it does): the photos are added.
  const visitor = await playwright.request.newContext();
  try {
    expect((await visitor.get(`${testSiteUrl}${STATUS_LINK_PREFIX}${statusToken}`)).status()).toBe(200);
    const crossSite = await visitor.post(target, { headers: { ...scripted, Origin: 'https://evil.example' }, ...(await photo(63)) });
    expect(crossSite.status()).toBe(403);
    expect(await crossSite.json()).toMatchObject({ success: false, reason: 'cross-site' });
    const added = await visitor.post(target, { headers: scripted, ...(await photo(64)) });
    expect(added.status()).toBe(201);
    expect(await added.json()).toEqual({ success: true, message: laterPhotosText.added(1, reference), reference, count: 1 });
    // Another claim's address with this cookie opens nothing: the cookie's path and its signature are the claim's.
    const other = await enquiryByApi(request, `later-http-other-${Date.now()}`);
    const elsewhere = await visitor.post(`${testSiteUrl}${laterPhotosPath(other)}`, { headers: scripted, ...(await photo(65)) });
    expect(elsewhere.status()).toBe(404);
  } finally {
    await visitor.dispose();
  }
});
