import { outboxMessages } from '../support/outbox';
import { request as httpRequest } from 'node:http';
import { expect, test, type Browser, type Page, type Route } from './support/test';
import { parseMail } from '../support/mail-message';
import { phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { axe } from './support/axe';
import { sentEnquiry } from './support/claims';
import { outboxFinished } from './support/database';
import { savedDraftFields, savedDraftPhotos } from './support/draft';
import { routeRecaptcha } from './support/fake-recaptcha';
import { testBuildEnv, testOutboxDir, testSiteUrl } from './test-env';

// The contact form as a visitor in a damaged house meets it, against the default test build: sent
// before its JavaScript runs, photos going up on a slow uplink (progress, Cancel), an answer lost on
// the way back (it keeps trying by itself), and a reload (what was typed comes back).

const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });
const database = testBuildEnv.DATABASE_URL!;
const photoInput = (page: Page) => form(page).getByLabel('Photos of the damage (optional)');

function outboxMails(unique: string) {
  return outboxMessages(testOutboxDir)
    .filter((raw) => raw.includes(unique))
    .map((raw) => parseMail(raw));
}

/** axe needs script in the page: the no-JavaScript page's markup is checked in a page that has it (its own scripts stay out). */
async function axeViolationsOf(browser: Browser, page: Page): Promise<string[]> {
  const html = await page.content();
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const checked = await context.newPage();
    await checked.route('**/*', (route) => route.abort());
    await checked.setContent(html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ''));
    return (await axe(checked).analyze()).violations.map((violation) => violation.id);
  } finally {
    await context.close();
  }
}

async function fillText(
  page: Page,
  subject: string,
  { email = 'jo@example.com', message = 'Water came through the kitchen ceiling overnight.' } = {},
) {
  await form(page).getByLabel(/^Name/).fill('Jo Bloggs');
  await form(page)
    .getByLabel(/^Email/)
    .fill(email);
  await form(page)
    .getByLabel(/^Subject/)
    .fill(subject);
  await form(page)
    .getByLabel(/^Message/)
    .fill(message);
}

test.describe('without JavaScript', { tag: '@smoke' }, () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts itself: a 303 to a page with the reference, nothing typed in any URL, the company told it was not checked', async ({
    page,
    browser,
  }) => {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto('/contact');
    const unique = `No script ${Date.now()}`;
    await fillText(page, unique);
    await form(page).getByLabel('This is about an insurance claim').check();
    await form(page).getByLabel('Postcode of the property').fill('g67 1ab');
    const posted = page.waitForResponse((response) => response.request().method() === 'POST');
    await form(page).getByRole('button', { name: 'Send message' }).click();
    const answer = await posted;
    expect(answer.status()).toBe(303);
    expect(answer.headers()['location']).toMatch(/^\/contact\/sent\?reference=HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}$/);
    await expect(page).toHaveURL(/\/contact\/sent\?reference=HC-/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Message sent');
    await expect(page.getByText('Your message has been sent successfully!')).toBeVisible();
    const reference = (await page.getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
    expect(reference).toMatch(/^HC-/);
    expect(await axeViolationsOf(browser, page)).toEqual([]);
    for (const url of urls) expect(url).not.toMatch(/Bloggs|jo%40example|jo@example|kitchen|G67/i);

    await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);
    const mail = outboxMails(unique)[0]!;
    expect(mail.text.split('\n')[0]).toBe(
      "NOT CHECKED BY BOT PROTECTION: sent from a browser that had not run the page's JavaScript. No acknowledgement was sent to the address given.",
    );
    expect(mail.text).toContain(`Reference: ${reference}`);
    expect(mail.text).toContain('G67 1AB');
  });

  test('a refused post comes back as the form, each message under its field and every typed value kept, at /contact', async ({
    page,
    browser,
  }) => {
    await page.goto('/contact?damage=water-damage');
    await fillText(page, 'Leak', { email: 'jo@example', message: 'Water <b>came</b> through the ceiling.' });
    await form(page).getByRole('button', { name: 'Send message' }).click();
    await expect(page).toHaveURL(`${testSiteUrl}/contact`);
    await expect(page.getByRole('alert')).toHaveText('Please correct the highlighted fields.');
    const email = form(page).getByLabel(/^Email/);
    await expect(email).toHaveValue('jo@example');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(form(page).getByText('Please enter a valid email address')).toBeVisible();
    await expect(form(page).getByText('Subject must be at least 5 characters long')).toBeVisible();
    await expect(form(page).getByLabel(/^Name/)).toHaveValue('Jo Bloggs');
    await expect(form(page).getByLabel(/^Subject/)).toHaveValue('Leak');
    await expect(form(page).getByLabel(/^Message/)).toHaveValue('Water <b>came</b> through the ceiling.');
    expect(await axeViolationsOf(browser, page)).toEqual([]);

    // Corrected and sent again from the page the refusal rendered.
    await form(page)
      .getByLabel(/^Email/)
      .fill('jo@example.com');
    await form(page)
      .getByLabel(/^Subject/)
      .fill(`Leak again ${Date.now()}`);
    await form(page).getByRole('button', { name: 'Send message' }).click();
    await expect(page).toHaveURL(/\/contact\/sent\?reference=HC-/);
  });
});

test('a post from another website is refused with nothing stored, on the page and on the API', async ({ request }) => {
  const unique = `Cross site ${Date.now()}`;
  const fields = { name: 'Jo Bloggs', email: 'jo@example.com', subject: unique, message: 'A message long enough to pass.' };
  const api = await request.post('/api/contact', { multipart: fields, headers: { Origin: 'https://attacker.example' } });
  expect(api.status()).toBe(403);
  expect(await api.json()).toMatchObject({ success: false, reason: 'cross-site' });
  const fetchSite = await request.post('/api/contact', { data: fields, headers: { 'Sec-Fetch-Site': 'cross-site' } });
  expect(fetchSite.status()).toBe(403);
  const page = await request.post('/contact', { multipart: fields, headers: { Origin: 'https://attacker.example' }, maxRedirects: 0 });
  expect(page.status()).toBe(403);
  // A later enquiry's notification: the outbox sends the oldest job due first, so had a refused post
  // been stored, its notification would have been written before this one.
  await sentEnquiry(request, `cross-site-marker-${Date.now()}`);
  expect(outboxMails(unique)).toHaveLength(0);
});

test('photos on a slow uplink: a progress bar with bytes, percentage and time left, coarse announcements, and Cancel keeps everything', async ({
  page,
}) => {
  // Its own waits, each for something a slow phone takes time over (the photo shrunk in the page, the
  // first bytes on a 320 kbit/s link, the send at full speed), add up to more than the default 30 s.
  test.setTimeout(120_000);
  await routeRecaptcha(page);
  await page.goto('/contact');
  const unique = `Slow uplink ${Date.now()}`;
  await fillText(page, unique);
  const photo = withPhoneExif(await phonePhoto(31));
  await photoInput(page).setInputFiles([{ name: 'IMG_0031.jpg', mimeType: 'image/jpeg', buffer: photo }]);
  await expect(form(page).getByRole('list', { name: 'Photos to send' }).getByRole('listitem')).toHaveCount(1);

  // One bar of signal: 320 kbit/s up.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: 200_000,
    uploadThroughput: 40_000,
  });

  await form(page).getByRole('button', { name: 'Send message' }).click();
  const bar = form(page).getByRole('progressbar', { name: 'Sending your enquiry' });
  // The bar shows once the 10 MB photo is shrunk on the page and its first bytes are sent: on a busy
  // two-core machine that alone can take several seconds.
  await expect(bar).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(bar).toHaveAttribute('aria-valuetext', /^\d+(\.\d)? (KB|MB) of \d+(\.\d)? (KB|MB) sent \(\d+%\)$/);
  await expect(form(page).getByTestId('send-progress')).toContainText(/About \d+ (seconds|minutes) left/, { timeout: 15_000 });
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  await form(page).getByTestId('send-progress').getByRole('button', { name: 'Cancel' }).click();
  await expect(bar).toHaveCount(0);
  await expect(form(page).getByRole('status')).toContainText('Sending stopped. Everything you entered and your photos are still here.');
  await expect(form(page).getByLabel(/^Subject/)).toHaveValue(unique);
  await expect(form(page).getByRole('list', { name: 'Photos to send' }).getByRole('listitem')).toHaveCount(1);

  // At full speed it goes, and the screen reader heard four steps, not every change.
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);
});

test('an answer lost on the way back: the form says it may not have arrived, tries again by itself, and one enquiry and one notification arrive', async ({
  page,
}) => {
  await routeRecaptcha(page);
  let posts = 0;
  await page.route('**/api/contact', async (route) => {
    posts += 1;
    if (posts === 1) {
      // The server stores it; the phone never hears.
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await page.goto('/contact');
  const unique = `Lost answer ${Date.now()}`;
  await fillText(page, unique);
  await form(page).getByRole('button', { name: 'Send message' }).click();
  const retry = form(page).getByTestId('send-retry');
  await expect(retry).toContainText('We could not confirm that your enquiry reached us');
  await expect(retry).toContainText('It may not have arrived yet, so we will keep trying');
  await expect(retry.getByRole('button', { name: 'Send now' })).toBeVisible();
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible({ timeout: 15_000 });
  expect(posts).toBe(2);
  await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);
  // Both posts were answered by now, so every enquiry they stored has its jobs; once the outbox has
  // finished them all, it sends nothing more for this subject.
  await outboxFinished(database, { subject: unique });
  expect(outboxMails(unique)).toHaveLength(1);
});

/** Sends the request the page made from another address (127.0.0.2): the phone moved from Wi-Fi to mobile. */
async function fromAnotherAddress(route: Route): Promise<void> {
  const request = route.request();
  const headers = await request.allHeaders();
  const answer = await new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest(request.url(), { method: request.method(), headers, localAddress: '127.0.0.2' }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(incoming.headers).map(([name, value]) => [name, String(value)])),
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(request.postDataBuffer() ?? undefined);
  });
  await route.fulfill(answer);
}

test('an answer lost, then the retry sent from another address: the reference shown is the one the company gets, once', async ({
  page,
}) => {
  await routeRecaptcha(page);
  let posts = 0;
  await page.route('**/api/contact', async (route) => {
    posts += 1;
    if (posts === 1) {
      // Stored from this address; the phone never hears.
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await fromAnotherAddress(route);
  });
  await page.goto('/contact');
  const unique = `Network change ${Date.now()}`;
  await fillText(page, unique);
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByTestId('send-retry')).toBeVisible();
  await form(page).getByRole('button', { name: 'Send now' }).click();
  const reference = form(page).getByTestId('enquiry-reference').locator('strong');
  await expect(reference).toHaveText(/^HC-/);
  expect(posts).toBe(2);
  await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);
  // Both posts were answered by now, so every enquiry they stored has its jobs; once the outbox has
  // finished them all, it sends nothing more for this subject.
  await outboxFinished(database, { subject: unique });
  expect(outboxMails(unique)).toHaveLength(1);
  expect(outboxMails(unique)[0]!.text).toContain(`Reference: ${await reference.textContent()}`);
});

test('an answer lost, then the message edited and sent again: a new reference shown, and the company gets both messages, the second naming the first', async ({
  page,
}) => {
  await routeRecaptcha(page);
  const unique = `Edited after a lost answer ${Date.now()}`;
  const firstWords = 'Water came through the kitchen ceiling overnight.';
  const editedWords = 'Water came through the kitchen ceiling overnight, and now the bedroom ceiling is sagging too.';
  let posts = 0;
  await page.route('**/api/contact', async (route) => {
    posts += 1;
    const body = route.request().postData() ?? '';
    if (posts === 1) {
      // Stored; the phone never hears.
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    // A retry of the first words while the visitor edits: still no connection (timing-proof).
    if (!body.includes(editedWords)) return route.abort('connectionreset');
    await route.continue();
  });
  await page.goto('/contact');
  await fillText(page, unique, { message: firstWords });
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByTestId('send-retry')).toContainText('We could not confirm that your enquiry reached us');

  // The visitor edits the message: the waiting send of the earlier words stops, and Send sends the form as it is.
  await form(page)
    .getByLabel(/^Message/)
    .fill(editedWords);
  await expect(form(page).getByTestId('send-retry')).toHaveCount(0);
  await expect(form(page)).toContainText('You changed the form, so we stopped sending the earlier version.');
  await form(page).getByRole('button', { name: 'Send message' }).click();
  const shown = form(page).getByTestId('enquiry-reference').locator('strong');
  await expect(shown).toHaveText(/^HC-/);
  const reference = (await shown.textContent()) ?? '';

  const notifications = () => outboxMails(unique).filter((mail) => mail.subject.startsWith('Enquiry '));
  await expect.poll(() => notifications().length, { timeout: 10_000 }).toBe(2);
  const first = notifications().find((mail) => !mail.text.includes(editedWords));
  const edited = notifications().find((mail) => mail.text.includes(editedWords));
  expect(first?.text).toContain(firstWords);
  const firstReference = /^Reference: (HC-\S+)$/m.exec(first?.text ?? '')?.[1];
  expect(firstReference).toMatch(/^HC-/);
  expect(firstReference).not.toBe(reference);
  expect(edited?.text).toContain(`Reference: ${reference}`);
  expect(edited?.text).toContain(`Sent again with changes: this replaces ${firstReference} sent at `);
  // Every post was answered by now; once the outbox has finished the jobs of every enquiry with this
  // subject, it sends nothing more for them.
  await outboxFinished(database, { subject: unique });
  expect(notifications()).toHaveLength(2);
});

test('offline when sending: it waits for the connection and sends as soon as it is back', async ({ page, context }) => {
  await routeRecaptcha(page);
  await page.goto('/contact');
  const unique = `Offline ${Date.now()}`;
  await fillText(page, unique);
  // Checks and Google's script are fetched on engagement, before the connection goes.
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByTestId('send-retry')).toContainText('Your phone is offline.');
  await context.setOffline(false);
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);
});

test('a draft survives a reload: the fields and the prepared photos come back, and Clear form forgets them', async ({ page }) => {
  await routeRecaptcha(page);
  await page.goto('/contact');
  const unique = `Draft ${Date.now()}`;
  await fillText(page, unique);
  await form(page).getByLabel('This is about an insurance claim').check();
  await form(page).getByLabel('Postcode of the property').fill('G67 1AB');
  const photo = withPhoneExif(await phonePhoto(41));
  await photoInput(page).setInputFiles([{ name: 'IMG_0041.jpg', mimeType: 'image/jpeg', buffer: photo }]);
  const items = form(page).getByRole('list', { name: 'Photos to send' }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  // Kept as prepared: downscaled, so smaller than the phone's file.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open('homecare-enquiry-draft', 1);
            open.onsuccess = () => {
              const all = open.result.transaction('photos').objectStore('photos').getAll();
              all.onsuccess = () => resolve((all.result as { blob: Blob }[]).reduce((sum, record) => sum + record.blob.size, 0));
              all.onerror = () => resolve(0);
            };
            open.onerror = () => resolve(0);
          }),
      ),
    )
    .toBeGreaterThan(0);
  const keptBytes = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('homecare-enquiry-draft', 1);
        open.onsuccess = () => {
          const all = open.result.transaction('photos').objectStore('photos').getAll();
          all.onsuccess = () => resolve((all.result as { blob: Blob }[])[0]!.blob.size);
        };
      }),
  );
  expect(keptBytes).toBeLessThan(photo.length);
  // The typed fields are saved a moment after the last change: reloaded once they are.
  await expect
    .poll(() => savedDraftFields(page))
    .toMatchObject({ fields: { name: 'Jo Bloggs', subject: unique, postcode: 'G67 1AB' }, claimOpen: true });

  await page.reload();
  await expect(form(page).getByRole('status')).toContainText('We kept what you started here earlier on this device');
  await expect(form(page).getByLabel(/^Subject/)).toHaveValue(unique);
  await expect(form(page).getByLabel(/^Name/)).toHaveValue('Jo Bloggs');
  await expect(form(page).getByLabel('This is about an insurance claim')).toBeChecked();
  await expect(form(page).getByLabel('Postcode of the property')).toHaveValue('G67 1AB');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('IMG_0041.jpg');

  await form(page).getByRole('button', { name: 'Clear form' }).click();
  await expect(form(page).getByLabel(/^Subject/)).toHaveValue('');
  await expect(items).toHaveCount(0);
  // Reloaded once the draft is gone from the device: its fields and its photos.
  await expect.poll(async () => [await savedDraftFields(page), await savedDraftPhotos(page)]).toEqual([null, 0]);
  await page.reload();
  await expect(form(page).getByLabel(/^Subject/)).toHaveValue('');
  await expect(form(page).getByText('We kept what you started here earlier on this device')).toHaveCount(0);
});

test('a draft is cleared once the enquiry is sent, and a refused storage means no draft but a working form', async ({ page }) => {
  await routeRecaptcha(page);
  await page.addInitScript(() => {
    // Private browsing on some phones: storage refuses every write.
    Storage.prototype.setItem = () => {
      throw new DOMException('QuotaExceededError', 'QuotaExceededError');
    };
  });
  await page.goto('/contact');
  const unique = `No storage ${Date.now()}`;
  await fillText(page, unique);
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible();
  await page.reload();
  await expect(form(page).getByLabel(/^Subject/)).toHaveValue('');
});

test('three prepared phone photos on one bar of signal (320 kbit/s up) take longer than half a minute and still arrive', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await routeRecaptcha(page);
  await page.goto('/contact');
  const unique = `One bar ${Date.now()}`;
  await fillText(page, unique);
  await photoInput(page).setInputFiles(
    await Promise.all(
      [61, 62, 63].map(async (seed) => ({
        name: `IMG_00${seed}.jpg`,
        mimeType: 'image/jpeg',
        buffer: withPhoneExif(await phonePhoto(seed)),
      })),
    ),
  );
  await expect(form(page).getByRole('list', { name: 'Photos to send' }).getByRole('listitem')).toHaveCount(3);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: 200_000,
    uploadThroughput: 40_000,
  });
  const started = Date.now();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact', { timeout: 170_000 });
  await form(page).getByRole('button', { name: 'Send message' }).click();
  const response = await answered;
  const bytes = response.request().postDataBuffer()?.length ?? 0;
  test.info().annotations.push({ type: 'upload', description: `${bytes} bytes in ${Math.round((Date.now() - started) / 1000)} s` });
  // More than the server's old 30 s for the whole request at this rate: it is given the time its size needs.
  expect(bytes).toBeGreaterThan(30 * 40_000);
  expect(response.status()).toBe(201);
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible();
  await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);
  expect(outboxMails(unique)[0]!.attachments.map((attachment) => attachment.filename)).toEqual([
    'photo-1.jpg',
    'photo-2.jpg',
    'photo-3.jpg',
  ]);
});

test('sent first without photos, then again with them: the photos follow the notification in their own e-mail, once', async ({ page }) => {
  await routeRecaptcha(page);
  await page.goto('/contact');
  const unique = `Late photos ${Date.now()}`;
  await fillText(page, unique);
  await form(page).getByRole('button', { name: 'Send message' }).click();
  const reference = (await form(page).getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
  await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);

  // The visitor remembers the photos and sends the same enquiry again with them.
  await fillText(page, unique);
  await photoInput(page).setInputFiles([
    { name: 'IMG_0071.jpg', mimeType: 'image/jpeg', buffer: await phonePhoto(71, { width: 1600, height: 1200 }) },
  ]);
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByTestId('enquiry-reference').locator('strong')).toHaveText(reference);
  const followUps = () => outboxMails(reference).filter((mail) => mail.subject === `More photos for ${reference}`);
  await expect.poll(() => followUps().length, { timeout: 10_000 }).toBe(1);
  expect(followUps()[0]!.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
  // Once the outbox has finished every job of the enquiry (it claims only pending ones), a second
  // follow-up would already be here.
  await outboxFinished(database, { reference });
  expect(followUps()).toHaveLength(1);
  expect(outboxMails(reference).filter((mail) => mail.subject.startsWith('Enquiry '))).toHaveLength(1);
});
