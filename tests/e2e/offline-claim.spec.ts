import http from 'node:http';
import { business } from '@/content/business';
import { PHOTO_MAX_BYTES, STAGED_PHOTOS } from '@/lib/enquiry-rules.mjs';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { KEPT_CLAIM_HEADER, KEPT_CLAIM_HEADER_VALUE, STAGE_PHOTO_FIELD } from '@/lib/offline/protocol';
import { keptClaimText, offlinePage } from '@/content/offline';
import { parseMail } from '../support/mail-message';
import { outboxMessages } from '../support/outbox';
import { phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { allRoutes } from '../../scripts/support/routes';
import { axe } from './support/axe';
import { dispatchBackgroundSync } from './support/background-sync';
import { watchCspViolations } from './support/csp-violations';
import { openTestDatabase, outboxFinished } from './support/database';
import { FAKE_RECAPTCHA, RECAPTCHA_SCRIPT } from './support/fake-recaptcha';
import { startRelay, type Relay } from './support/relay';
import { expect, test, waitingForHydration, type BrowserContext, type Page, type Request } from './support/test';
import { testBuildEnv, testOutboxDir, testPorts } from './test-env';

// A claim from a house with no signal, against the default test build: the service worker opens the
// form and the offline page from its cache, keeps a claim the phone could not send (with its photos), and
// sends it once when the signal returns, by Background Sync with no page open or when a page is opened.
// The signal is a TCP relay between the browser and the site (tests/e2e/support/relay.ts): cutting it
// cuts the worker's own requests too, which Playwright's setOffline does not. Each test has its own relay
// port, so its own origin and its own worker.

test.use({ serviceWorkers: 'allow' });

// The words as the brief for the feature gives them; content/offline.ts must say the same.
const KEPT = 'No signal: your claim is saved on this phone and will be sent when it has a signal. You can close this page.';
const OFFLINE_H1 = "You're offline: you can still send us your claim";
const sentNotice = (page: Page) => page.getByRole('status').filter({ hasText: 'Your claim was sent' });
const h1Of = (path: string) => allRoutes.find((route) => route.path === path)!.h1;

const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });
const claimField = (page: Page, label: string) => form(page).getByLabel(label, { exact: true });

let relay: Relay;
test.beforeEach(async ({ context }) => {
  relay = await startRelay(testPorts.site);
  // Google's script, answered by the fake for every page and for the worker alike.
  await context.route(RECAPTCHA_SCRIPT, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_RECAPTCHA }));
});
test.afterEach(async () => {
  await relay.close();
});

/** Whether `page` is controlled by the site's service worker (after its activation); false after a second without one. */
const controlled = (page: Page) =>
  page
    .evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000)),
      ]),
    )
    .catch(() => false);

/** The first visit, through the relay: the worker installs (its cache filled) and takes this page over. */
async function firstVisit(page: Page, path = '/'): Promise<void> {
  await page.goto(`${relay.url}${path}`);
  await expect.poll(() => controlled(page), { message: 'the service worker controls the page', timeout: 20_000 }).toBe(true);
}

/** A new tab of the context whose navigations wait for hydration, as the `page` fixture's do. */
const newTab = async (context: BrowserContext) => waitingForHydration(await context.newPage());

async function fillClaim(page: Page, subject: string): Promise<void> {
  await form(page).getByLabel(/^Name/).fill('Jo Bloggs');
  await form(page)
    .getByLabel(/^Email/)
    .fill('jo@example.com');
  await form(page)
    .getByLabel(/^Phone/)
    .fill('07700 900123');
  await form(page)
    .getByLabel(/^Subject/)
    .fill(subject);
  await form(page)
    .getByLabel(/^Message/)
    .fill('The bathroom pipe burst and the kitchen ceiling below has come down.');
  await form(page).getByRole('checkbox', { name: 'This is about an insurance claim' }).check();
  await claimField(page, 'Who is getting in touch').selectOption({ label: 'Homeowner or tenant' });
  await claimField(page, 'Type of damage').selectOption({ label: 'Water damage' });
  await claimField(page, 'Postcode of the property').fill('G67 1AB');
}

async function addPhonePhotos(page: Page, seeds: [number, number]): Promise<void> {
  await form(page)
    .getByLabel('Photos of the damage (optional)')
    .setInputFiles(
      await Promise.all(
        seeds.map(async (seed) => ({ name: `IMG_0${seed}.jpg`, mimeType: 'image/jpeg', buffer: withPhoneExif(await phonePhoto(seed)) })),
      ),
    );
  await expect(form(page).getByRole('list', { name: 'Photos to send' }).getByRole('listitem')).toHaveCount(2);
}

const send = (page: Page) => form(page).getByRole('button', { name: 'Send message' }).click();

/** The company's notifications of the enquiry with `subject` (not the visitor's acknowledgement). */
const notifications = (subject: string) =>
  outboxMessages(testOutboxDir)
    .filter((raw) => raw.includes(subject))
    .map((raw) => parseMail(raw))
    .filter((mail) => mail.subject.startsWith('Enquiry '));

/** The stored enquiries with `subject`: each one's reference and number of photos. */
async function storedEnquiries(subject: string): Promise<{ reference: string; photos: number }[]> {
  const db = openTestDatabase(testBuildEnv.DATABASE_URL!);
  try {
    const { rows } = await db.execute({
      sql: `SELECT e.reference AS reference, (SELECT count(*) FROM enquiry_photos p WHERE p.enquiry_id = e.id) AS photos
            FROM enquiries e WHERE e.subject = ? ORDER BY e.id`,
      args: [subject],
    });
    return rows.map((row) => ({ reference: String(row.reference), photos: Number(row.photos) }));
  } finally {
    db.close();
  }
}

/** The worker's posts of a kept claim that the site answered, with the header that says where they came from. */
function queuePosts(context: BrowserContext): { answered: { sentFrom: string | undefined; status: number }[] } {
  const seen = { answered: [] as { sentFrom: string | undefined; status: number }[] };
  context.on('requestfinished', (request: Request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/contact' || !request.serviceWorker()) return;
    void Promise.all([request.allHeaders(), request.response()]).then(([headers, response]) =>
      seen.answered.push({ sentFrom: headers['x-enquiry-sent-from'], status: response?.status() ?? 0 }),
    );
  });
  return seen;
}

type KeptOnPhone = { enquiryKey: string; photoBytes: number[] };

/** The claims the worker keeps on the phone (its IndexedDB, read from a page of the same origin): each one's photo sizes. */
const keptOnPhone = (page: Page) =>
  page.evaluate(async () => {
    // Opened only once it exists: opening would create it, without the worker's stores.
    if (!(await indexedDB.databases()).some((db) => db.name === 'homecare-kept-claims')) return null;
    return new Promise<KeptOnPhone[] | null>((resolve) => {
      const open = indexedDB.open('homecare-kept-claims');
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('claims')) return resolve(null);
        const all = db.transaction('claims').objectStore('claims').getAll();
        // Each photo as bytes (a Blob in an older version of the store).
        type Stored = { enquiryKey: string; photos: { bytes?: ArrayBuffer; blob?: Blob }[] };
        all.onsuccess = () =>
          resolve(
            (all.result as Stored[]).map((claim) => ({
              enquiryKey: claim.enquiryKey,
              photoBytes: claim.photos.map((photo) => photo.bytes?.byteLength ?? photo.blob?.size ?? 0),
            })),
          );
        all.onerror = () => resolve(null);
      };
      open.onerror = () => resolve(null);
    });
  });

/** A context's storage as Playwright reads it with `indexedDB: true` (its types leave the databases out). */
type PhoneStorage = {
  origins: {
    origin: string;
    localStorage: { name: string; value: string }[];
    indexedDB?: { name: string; stores: { name: string; records: unknown[] }[] }[];
  }[];
};

/** The total size of the photos the form prepared (shrunk) and keeps in its draft, once both are there. */
async function preparedPhotoBytes(page: Page): Promise<number> {
  const sizes = () =>
    page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const open = indexedDB.open('homecare-enquiry-draft', 1);
          open.onsuccess = () => {
            const all = open.result.transaction('photos').objectStore('photos').getAll();
            all.onsuccess = () => resolve((all.result as { blob: Blob }[]).map((record) => record.blob.size));
            all.onerror = () => resolve([]);
          };
          open.onerror = () => resolve([]);
        }),
    );
  await expect.poll(async () => (await sizes()).length, { timeout: 30_000 }).toBe(2);
  return (await sizes()).reduce((sum, size) => sum + size, 0);
}

test('through the relay the site takes the claim as from the phone: its Origin and Host are both the relay’s', async ({ page }) => {
  await page.goto(`${relay.url}/contact`);
  const subject = `Through the relay ${Date.now()}`;
  await fillClaim(page, subject);
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await send(page);
  const answer = await answered;
  expect(answer.status()).toBe(201);
  expect(new URL(answer.url()).origin).toBe(relay.url);
  await expect(form(page).getByTestId('enquiry-reference')).toBeVisible();
  expect(await storedEnquiries(subject)).toHaveLength(1);
});

test('with no signal, the form and the insurers’ page open from the phone, and any other page gives the offline page', async ({
  page,
  context,
}) => {
  await firstVisit(page);
  await relay.cut();

  await page.goto(`${relay.url}/contact`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
  await expect(form(page).getByRole('button', { name: 'Send message' })).toBeVisible();
  // Any query string: a link from a search result or an advert.
  await page.goto(`${relay.url}/contact?damage=water-damage&utm_source=google`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
  await expect(claimField(page, 'Type of damage')).toHaveValue('water-damage');
  await page.goto(`${relay.url}/insurers?utm_medium=email`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1Of('/insurers'));

  const offline = await newTab(context);
  await offline.goto(`${relay.url}/about`);
  await expect(offline).toHaveURL(`${relay.url}/about`);
  await expect(offline.getByRole('heading', { level: 1 })).toHaveText(OFFLINE_H1);
  expect(offlinePage.heading).toBe(OFFLINE_H1);
  // It links to the form (a full load, answered from the phone) and gives the number to call.
  const formLink = offline.getByRole('main').getByRole('link', { name: offlinePage.formLink });
  await expect(formLink).toHaveAttribute('href', /^\/contact(#|$)/);
  await expect(offline.getByRole('main').getByRole('link', { name: business.phone.display })).toHaveAttribute(
    'href',
    `tel:${business.phone.e164}`,
  );
  expect((await axe(offline).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  // The offline page's link to the form works with no signal.
  await formLink.click();
  await expect(offline).toHaveURL(/\/contact(#contact-form)?$/);
  await expect(offline.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
});

/** Every script of the build `page` loads from now on, with whether the worker answered it. */
function buildScripts(page: Page): { path: string; fromWorker: boolean }[] {
  const seen: { path: string; fromWorker: boolean }[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/_next/static/') && response.request().resourceType() === 'script')
      seen.push({ path: pathname, fromWorker: response.fromServiceWorker() });
  });
  return seen;
}

test('with a signal a page loads its scripts as the browser does (its cache and compiled code), and a page from the phone gets them from the worker', async ({
  page,
  context,
}) => {
  await firstVisit(page, '/contact');
  const online = buildScripts(page);
  await page.reload();
  await expect(form(page).getByRole('button', { name: 'Send message' })).toBeVisible();
  expect(online.length).toBeGreaterThan(0);
  expect(online.filter((script) => script.fromWorker)).toEqual([]);

  await relay.cut();
  const kept = await newTab(context);
  const offline = buildScripts(kept);
  await kept.goto(`${relay.url}/contact`);
  await expect(form(kept).getByRole('button', { name: 'Send message' })).toBeVisible();
  expect(offline.length).toBeGreaterThan(0);
  expect(offline.filter((script) => !script.fromWorker)).toEqual([]);
});

test('a claim with two phone photos kept with no signal is sent once by Background Sync with no page open, and the next page shows its reference', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  const posts = queuePosts(context);
  await firstVisit(page);
  await relay.cut();

  await page.goto(`${relay.url}/contact`);
  const subject = `Kept claim ${Date.now()}`;
  await fillClaim(page, subject);
  await addPhonePhotos(page, [81, 82]);
  await send(page);
  const kept = form(page).getByTestId('kept-on-phone');
  await expect(kept.getByText(KEPT, { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(keptClaimText.kept).toBe(KEPT);
  // With it, the emergency line for what cannot wait.
  await expect(kept).toContainText(`${keptClaimText.urgent} ${business.emergencyPhone.display}.`);
  await expect(kept.getByRole('link', { name: business.emergencyPhone.display })).toHaveAttribute(
    'href',
    `tel:${business.emergencyPhone.e164}`,
  );
  // Kept with its photos as the form shrank them, not the phone's 10 MB files.
  const [keptClaim] = (await keptOnPhone(page)) ?? [];
  expect(keptClaim?.photoBytes).toHaveLength(2);
  for (const bytes of keptClaim!.photoBytes) expect(bytes).toBeLessThan(5_000_000);
  await page.close();

  await relay.restore();
  expect(context.pages()).toHaveLength(0);
  expect(await storedEnquiries(subject)).toEqual([]);
  await dispatchBackgroundSync(context, relay.url);
  await expect.poll(() => notifications(subject).length, { timeout: 30_000 }).toBe(1);
  const [enquiry] = await storedEnquiries(subject);
  expect(enquiry).toEqual({ reference: expect.stringMatching(/^HC-/), photos: 2 });
  const notification = notifications(subject)[0]!;
  expect(notification.subject).toBe(`Enquiry ${enquiry!.reference}: Water damage: ${subject}`);
  expect(notification.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
  expect(posts.answered).toContainEqual({ sentFrom: 'phone-queue', status: 201 });
  // Nothing of the claim is left on the phone, with no page opened since: no draft (its words in local
  // storage, its photos in IndexedDB) and no kept claim.
  const phone = ((await context.storageState({ indexedDB: true })) as unknown as PhoneStorage).origins.find(
    (origin) => origin.origin === relay.url,
  );
  expect(phone?.indexedDB?.map((db) => db.name)).toContain('homecare-kept-claims');
  expect(phone!.localStorage.filter((item) => item.name.startsWith('homecare:'))).toEqual([]);
  const records = (database: string) =>
    (phone!.indexedDB ?? []).filter((db) => db.name === database).flatMap((db) => db.stores.flatMap((store) => store.records));
  expect(records('homecare-enquiry-draft')).toEqual([]);
  expect(records('homecare-kept-claims').filter((record) => JSON.stringify(record).includes(subject))).toEqual([]);

  // Another sync (Chromium fires one each time the signal comes back): nothing kept, nothing sent. A post
  // of the kept claim again carries its enquiry key, which the site answers with the stored enquiry and
  // no new e-mail; once the outbox has finished the jobs of the enquiries with this subject, none comes.
  await dispatchBackgroundSync(context, relay.url);
  await outboxFinished(testBuildEnv.DATABASE_URL!, { subject });
  expect(notifications(subject)).toHaveLength(1);
  expect(await storedEnquiries(subject)).toHaveLength(1);

  // The visitor opens the form again: told it was sent, with the stored reference; the form empty (its
  // draft went when the claim was kept, so nothing of it was left for the form to show).
  const next = await newTab(context);
  await next.goto(`${relay.url}/contact`);
  await expect(sentNotice(next)).toContainText(`Your claim was sent: reference ${enquiry!.reference}`);
  await expect(form(next).getByLabel(/^Subject/)).toHaveValue('');
  await expect(form(next).getByTestId('enquiry-reference')).toHaveCount(0);
  expect(await keptOnPhone(next)).toEqual([]);
  // The notice came after the worker's round and it keeps nothing, so it posts nothing more; once the
  // outbox has finished the jobs of the enquiries with this subject, it sends nothing more either.
  await outboxFinished(testBuildEnv.DATABASE_URL!, { subject });
  expect(notifications(subject)).toHaveLength(1);
  expect(await storedEnquiries(subject)).toHaveLength(1);
});

test('a claim whose signal goes halfway through its photos is kept, then sent once with both photos when a page is opened', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  await firstVisit(page, '/contact');
  await page.goto(`${relay.url}/contact`);
  const subject = `Cut upload ${Date.now()}`;
  await fillClaim(page, subject);
  await addPhonePhotos(page, [83, 84]);
  const photoBytes = await preparedPhotoBytes(page);
  const cut = relay.cutAfter(Math.round(photoBytes / 2), { path: '/api/contact' });
  await send(page);
  await cut;
  await expect(page.getByText(KEPT, { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(await storedEnquiries(subject)).toEqual([]);
  await page.close();

  await relay.restore();
  const next = await newTab(context);
  await next.goto(`${relay.url}/`);
  await expect.poll(() => notifications(subject).length, { timeout: 30_000 }).toBe(1);
  const enquiries = await storedEnquiries(subject);
  expect(enquiries).toEqual([{ reference: expect.stringMatching(/^HC-/), photos: 2 }]);
  expect(notifications(subject)[0]!.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
  await expect(sentNotice(next)).toContainText(`Your claim was sent: reference ${enquiries[0]!.reference}`);
  expect(await keptOnPhone(next)).toEqual([]);
  // The notice came after the worker's round and it keeps nothing, so it posts nothing more; once the
  // outbox has finished the jobs of the enquiries with this subject, it sends nothing more either.
  await outboxFinished(testBuildEnv.DATABASE_URL!, { subject });
  expect(notifications(subject)).toHaveLength(1);
});

test('the worker’s own send cut during its second photo resumes there: the first photo is not sent again, and one enquiry arrives with both', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  const posts = queuePosts(context);
  await firstVisit(page);
  await relay.cut();
  await page.goto(`${relay.url}/contact`);
  const subject = `Worker cut ${Date.now()}`;
  await fillClaim(page, subject);
  await addPhonePhotos(page, [85, 86]);
  await send(page);
  await expect(page.getByText(KEPT, { exact: true })).toBeVisible({ timeout: 30_000 });
  const [keptClaim] = (await keptOnPhone(page)) ?? [];
  expect(keptClaim?.photoBytes).toHaveLength(2);
  await page.close();

  // A weak signal: the worker sends the first photo ahead, and the line drops halfway through the second.
  const cut = relay.cutAfter(Math.round(keptClaim!.photoBytes[1]! / 2), { path: '/api/contact', after: 1 });
  await relay.restore();
  const opened = await newTab(context);
  await opened.goto(`${relay.url}/`);
  await cut;
  await opened.close();
  expect(await storedEnquiries(subject)).toEqual([]);
  expect(posts.answered).toHaveLength(1);
  expect(posts.answered[0]!.sentFrom).toBe('phone-queue');
  expect(posts.answered[0]!.status).toBeLessThan(300);

  // The signal back, no page open: the second photo, then the claim naming both.
  await relay.restore();
  await dispatchBackgroundSync(context, relay.url);
  await expect.poll(() => notifications(subject).length, { timeout: 30_000 }).toBe(1);
  expect(await storedEnquiries(subject)).toEqual([{ reference: expect.stringMatching(/^HC-/), photos: 2 }]);
  expect(notifications(subject)[0]!.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
  await expect.poll(() => posts.answered.length).toBe(3);
  for (const post of posts.answered) expect(post).toEqual({ sentFrom: 'phone-queue', status: expect.any(Number) });
  expect(posts.answered.at(-1)!.status).toBe(201);
});

/** Posts one photo ahead of a kept claim as the worker does, from `sourceAddress`: the site's answer's status and reason. */
async function stagePhotoFrom(sourceAddress: string, bytes: Buffer): Promise<{ status: number; reason?: string }> {
  const body = new FormData();
  body.append(STAGE_PHOTO_FIELD, newEnquiryKey());
  body.append('photos', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'IMG_0001.jpg');
  const encoded = new Response(body);
  const payload = Buffer.from(await encoded.arrayBuffer());
  const origin = `http://localhost:${testPorts.site}`;
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}/api/contact`,
      {
        method: 'POST',
        localAddress: sourceAddress,
        headers: {
          'content-type': encoded.headers.get('content-type')!,
          'content-length': String(payload.length),
          accept: 'application/json',
          origin,
          [KEPT_CLAIM_HEADER]: KEPT_CLAIM_HEADER_VALUE,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let reason: string | undefined;
          try {
            reason = (JSON.parse(text) as { reason?: string }).reason;
          } catch {
            reason = undefined;
          }
          resolve({ status: response.statusCode ?? 0, reason });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

test('a phone whose share of the space for photos sent ahead is full sends its kept claim whole, photos and all, once', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  // This phone reaches the site from an address of its own, whose share the test fills first with
  // photos of the largest size a photo may be (a phone photo padded past its end).
  const phoneAddress = '127.0.0.87';
  await relay.close();
  relay = await startRelay(testPorts.site, '127.0.0.1', { sourceAddress: phoneAddress });
  const base = await phonePhoto(87, { width: 1600, height: 1200 });
  const largest = (seed: number) => {
    const padded = Buffer.concat([base, Buffer.alloc(PHOTO_MAX_BYTES - base.length - 4096)]);
    padded.writeUInt32BE(seed, padded.length - 4);
    return padded;
  };
  const shareCount = STAGED_PHOTOS.perClientBytes / PHOTO_MAX_BYTES;
  for (let index = 0; index < shareCount; index++)
    expect((await stagePhotoFrom(phoneAddress, largest(index))).status, `photo ${index + 1}`).toBe(201);
  expect(await stagePhotoFrom(phoneAddress, largest(99))).toEqual({ status: 507, reason: 'send-whole' });

  const posts = queuePosts(context);
  await firstVisit(page);
  await relay.cut();
  await page.goto(`${relay.url}/contact`);
  const subject = `Share full ${Date.now()}`;
  await fillClaim(page, subject);
  await addPhonePhotos(page, [88, 89]);
  await send(page);
  await expect(page.getByText(KEPT, { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.close();

  await relay.restore();
  await dispatchBackgroundSync(context, relay.url);
  await expect.poll(() => notifications(subject).length, { timeout: 60_000 }).toBe(1);
  expect(await storedEnquiries(subject)).toEqual([{ reference: expect.stringMatching(/^HC-/), photos: 2 }]);
  expect(notifications(subject)[0]!.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
  // Its first photo was answered "send it whole"; then the claim went with both photos in its own body.
  await expect.poll(() => posts.answered.map((post) => post.status)).toEqual([507, 201]);
  for (const post of posts.answered) expect(post.sentFrom).toBe('phone-queue');
  await outboxFinished(testBuildEnv.DATABASE_URL!, { subject });
  expect(notifications(subject)).toHaveLength(1);
});

test('no Content-Security-Policy violation with the worker active, online and with no signal', async ({ page, context }) => {
  const violations = await watchCspViolations(page);
  await firstVisit(page);
  for (const path of ['/', '/contact', '/insurers', '/offline']) {
    await page.goto(`${relay.url}${path}`);
    expect(await controlled(page)).toBe(true);
    expect(await violations.all(), path).toEqual([]);
  }
  await relay.cut();
  for (const path of ['/contact', '/insurers', '/about']) {
    await page.goto(`${relay.url}${path}`);
    expect(await violations.all(), `${path} with no signal`).toEqual([]);
  }
  // A second tab watched from its start, with no signal at all.
  const later = await newTab(context);
  const laterViolations = await watchCspViolations(later);
  await later.goto(`${relay.url}/contact`);
  expect(await laterViolations.all()).toEqual([]);
});

test('with no room left on the phone, the form says so and keeps everything typed', async ({ page, context }) => {
  await context.addInitScript(() => {
    Object.defineProperty(StorageManager.prototype, 'estimate', {
      configurable: true,
      value: () => Promise.resolve({ quota: 50_000_000, usage: 50_000_000 }),
    });
  });
  await firstVisit(page);
  await relay.cut();
  await page.goto(`${relay.url}/contact`);
  const subject = `No room ${Date.now()}`;
  await fillClaim(page, subject);
  await send(page);
  await expect(form(page).getByRole('alert')).toHaveText(
    'This phone has no room left to keep your claim with its photos, so it has not been saved for later. Everything you entered is still here: remove a photo or two and press Send message again, or send it when you have a signal.',
  );
  await expect(page.getByText(KEPT)).toHaveCount(0);
  expect(await keptOnPhone(page)).toEqual([]);
  await expect(form(page).getByLabel(/^Name/)).toHaveValue('Jo Bloggs');
  await expect(form(page).getByLabel(/^Email/)).toHaveValue('jo@example.com');
  await expect(form(page).getByLabel(/^Phone/)).toHaveValue('07700 900123');
  await expect(form(page).getByLabel(/^Subject/)).toHaveValue(subject);
  await expect(form(page).getByLabel(/^Message/)).toHaveValue('The bathroom pipe burst and the kitchen ceiling below has come down.');
  await expect(form(page).getByRole('checkbox', { name: 'This is about an insurance claim' })).toBeChecked();
  await expect(claimField(page, 'Who is getting in touch')).toHaveValue('homeowner');
  await expect(claimField(page, 'Type of damage')).toHaveValue('water-damage');
  await expect(claimField(page, 'Postcode of the property')).toHaveValue('G67 1AB');
});

test('with no signal at all (the phone knows it) Google’s script cannot load either: the claim is kept, and sent by the open page when the phone is back online', async ({
  page,
  context,
}) => {
  await firstVisit(page);
  await relay.cut();
  await context.unroute(RECAPTCHA_SCRIPT);
  await context.route(RECAPTCHA_SCRIPT, (route) => route.abort('internetdisconnected'));
  await page.goto(`${relay.url}/contact`);
  // Offline from here: Chromium drops the emulated navigator.onLine for a document its worker answers, so
  // it is set after the form has opened.
  await context.setOffline(true);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  const subject = `No Google offline ${Date.now()}`;
  await fillClaim(page, subject);
  await send(page);
  await expect(page.getByText(KEPT, { exact: true })).toBeVisible({ timeout: 30_000 });

  // The signal comes back with the page still open: its online event has the worker send the claim.
  await relay.restore();
  await context.setOffline(false);
  await expect.poll(() => notifications(subject).length, { timeout: 30_000 }).toBe(1);
  const [enquiry] = await storedEnquiries(subject);
  await expect(sentNotice(page)).toContainText(`Your claim was sent: reference ${enquiry!.reference}`);
  await expect(form(page).getByTestId('enquiry-reference').locator('strong')).toHaveText(enquiry!.reference);
});

test('with bars but no data (the phone thinks it is online) Google’s script cannot load either: the claim is still kept', async ({
  page,
  context,
}) => {
  await firstVisit(page);
  await relay.cut();
  await context.unroute(RECAPTCHA_SCRIPT);
  await context.route(RECAPTCHA_SCRIPT, (route) => route.abort('internetdisconnected'));
  await page.goto(`${relay.url}/contact`);
  const subject = `No Google no data ${Date.now()}`;
  await fillClaim(page, subject);
  await send(page);
  await expect(page.getByText(KEPT, { exact: true })).toBeVisible({ timeout: 30_000 });

  await relay.restore();
  await page.goto(`${relay.url}/`);
  await expect.poll(() => notifications(subject).length, { timeout: 30_000 }).toBe(1);
  const [enquiry] = await storedEnquiries(subject);
  await expect(sentNotice(page)).toContainText(`Your claim was sent: reference ${enquiry!.reference}`);
});
