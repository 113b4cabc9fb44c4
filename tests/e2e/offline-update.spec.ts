import { keptClaimNoticeText } from '@/content/kept-claim-notices';
import { parseMail } from '../support/mail-message';
import { outboxMessages } from '../support/outbox';
import { openTestDatabase, outboxFinished } from './support/database';
import { FAKE_RECAPTCHA, RECAPTCHA_SCRIPT } from './support/fake-recaptcha';
import { workerKeepsNothing } from './support/kept-claims';
import { startRelay, type Relay } from './support/relay';
import { expect, test, waitingForHydration, type Page } from './support/test';
import { testBuildEnv, testOutboxDir, testPorts } from './test-env';

// A claim kept on the phone over the weeks of a site's life: a new version of the site's worker takes
// over with a claim kept by the old one, and a claim the site refuses when it finally arrives (a rule that
// changed meanwhile) comes back to the visitor in the form. The signal is the TCP relay the other offline
// specs cut (tests/e2e/support/relay.ts); the next version of the worker is the test build's
// `/service-worker.js/next`: the same worker under another version, as a new build makes it.

test.use({ serviceWorkers: 'allow' });

const KEPT = 'No signal: your claim is saved on this phone and will be sent when it has a signal. You can close this page.';

let relay: Relay;
test.beforeEach(async ({ context }) => {
  relay = await startRelay(testPorts.site);
  await context.route(RECAPTCHA_SCRIPT, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_RECAPTCHA }));
});
test.afterEach(async () => {
  await relay.close();
});

const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });

/** The script of the worker that controls `page`, once one does. */
const controller = (page: Page) =>
  page.evaluate(() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller?.scriptURL ?? null)).catch(() => null);

async function keepClaim(page: Page, subject: string, email = 'ailsa@example.com') {
  await page.goto(`${relay.url}/contact`);
  await expect.poll(() => controller(page), { timeout: 20_000 }).toBe(`${relay.url}/service-worker.js`);
  await relay.cut();
  await page.goto(`${relay.url}/contact`);
  await form(page).getByLabel(/^Name/).fill('Ailsa Nic a’ Ghobhainn');
  await form(page)
    .getByLabel(/^Email/)
    .fill(email);
  await form(page)
    .getByLabel(/^Subject/)
    .fill(subject);
  await form(page)
    .getByLabel(/^Message/)
    .fill('Storm damage to the roof: slates off and water in the loft.');
  await form(page).getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText(KEPT, { exact: true })).toBeVisible({ timeout: 30_000 });
}

/** The photos the worker's database holds, in kept claims and in outcomes alike (read from a page of the same origin). */
const photosOnPhone = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('homecare-kept-claims');
        open.onsuccess = () => {
          const db = open.result;
          const names = [...db.objectStoreNames];
          if (names.length === 0) return resolve(0);
          let count = 0;
          const transaction = db.transaction(names);
          for (const name of names) {
            const all = transaction.objectStore(name).getAll();
            all.onsuccess = () => {
              for (const record of all.result as { photos?: unknown[]; claim?: { photos?: unknown[] } }[])
                count += (record.photos?.length ?? 0) + (record.claim?.photos?.length ?? 0);
            };
          }
          transaction.oncomplete = () => resolve(count);
        };
        open.onerror = () => reject(open.error);
      }),
  );

async function storedReferences(subject: string): Promise<string[]> {
  const db = openTestDatabase(testBuildEnv.DATABASE_URL!);
  try {
    const { rows } = await db.execute({ sql: 'SELECT reference FROM enquiries WHERE subject = ? ORDER BY id', args: [subject] });
    return rows.map((row) => String(row.reference));
  } finally {
    db.close();
  }
}

const notifications = (subject: string) =>
  outboxMessages(testOutboxDir)
    .filter((raw) => raw.includes(subject))
    .map((raw) => parseMail(raw))
    .filter((mail) => mail.subject.startsWith('Enquiry '));

test('a new version of the worker takes over with a claim the old one kept, and sends it once', async ({ page }) => {
  test.setTimeout(90_000);
  const subject = `Kept across an update ${Date.now()}`;
  await keepClaim(page, subject);
  const oldCaches = await page.evaluate(() => caches.keys());
  expect(oldCaches).toHaveLength(1);

  // The signal returns and the site has a new version: its worker installs, takes over from the page
  // still open (no reload: the form keeps what it shows) and sends the claim the old version kept.
  await relay.restore();
  await page.evaluate(() => navigator.serviceWorker.register('/service-worker.js/next', { scope: '/', updateViaCache: 'none' }));
  await expect.poll(() => controller(page), { timeout: 20_000 }).toBe(`${relay.url}/service-worker.js/next`);
  await expect.poll(() => notifications(subject).length, { timeout: 30_000 }).toBe(1);
  const [reference] = await storedReferences(subject);
  await expect(page.getByRole('status').filter({ hasText: 'Your claim was sent' })).toContainText(
    `Your claim was sent: reference ${reference}`,
  );
  await expect(form(page).getByTestId('enquiry-reference').locator('strong')).toHaveText(reference!);
  // The old version's cache is gone, the new one's holds the form.
  const newCaches = await page.evaluate(() => caches.keys());
  expect(newCaches).toHaveLength(1);
  expect(newCaches[0]).not.toBe(oldCaches[0]);
  expect(
    await page.evaluate(async (name) => (await caches.open(name)).match('/contact').then((found) => found?.status), newCaches[0]!),
  ).toBe(200);

  // Opened again: nothing more is sent. The worker's round after this visit ends with nothing kept, so
  // it posts nothing more; and once the outbox has finished the enquiry's jobs, it sends nothing more.
  await page.goto(`${relay.url}/about`);
  await workerKeepsNothing(page);
  await outboxFinished(testBuildEnv.DATABASE_URL!, { subject });
  expect(notifications(subject)).toHaveLength(1);
  expect(await storedReferences(subject)).toHaveLength(1);
});

test('a kept claim the site refuses when it arrives comes back in the form, filled in, never dropped', async ({ page, context }) => {
  test.setTimeout(90_000);
  const subject = `Refused when it arrived ${Date.now()}`;
  await keepClaim(page, subject);
  // A rule changed while the claim waited on the phone: what it holds is no longer accepted (here its
  // address, made one the site refuses, since the form's own checks let nothing invalid through).
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('homecare-kept-claims');
        open.onsuccess = () => {
          const store = open.result.transaction('claims', 'readwrite').objectStore('claims');
          const all = store.getAll();
          all.onsuccess = () => {
            const [claim] = all.result as { fields: Record<string, string> }[];
            // With a photo, as a claim from a house often has: the refusal keeps the words, never the photo.
            const photo = { name: 'IMG_2041.jpg', type: 'image/jpeg', bytes: new Uint8Array(2048).buffer };
            store.put({ ...claim, fields: { ...claim!.fields, email: 'not an address' }, photos: [photo] });
            store.transaction.oncomplete = () => resolve();
          };
        };
        open.onerror = () => reject(open.error);
      }),
  );
  expect(await photosOnPhone(page)).toBe(1);
  await page.close();

  await relay.restore();
  const next = waitingForHydration(await context.newPage());
  await next.goto(`${relay.url}/about`);
  const notice = next.getByRole('status').filter({ hasText: 'could not be sent' });
  await expect(notice).toContainText(keptClaimNoticeText.refused('Please correct the highlighted fields.'));
  await expect(notice).toContainText(keptClaimNoticeText.refusedNext);
  expect(await storedReferences(subject)).toEqual([]);
  expect(await photosOnPhone(next)).toBe(0);

  await notice.getByRole('link', { name: keptClaimNoticeText.formLink }).click();
  await expect(next).toHaveURL(/\/contact#contact-form$/);
  await expect(form(next).getByLabel(/^Subject/)).toHaveValue(subject);
  await expect(form(next).getByLabel(/^Name/)).toHaveValue('Ailsa Nic a’ Ghobhainn');
  await expect(form(next).getByLabel(/^Email/)).toHaveValue('not an address');
  // Corrected and sent with a signal: one enquiry.
  await form(next)
    .getByLabel(/^Email/)
    .fill('ailsa@example.com');
  await form(next).getByRole('button', { name: 'Send message' }).click();
  await expect(form(next).getByTestId('enquiry-reference')).toBeVisible({ timeout: 30_000 });
  expect(await storedReferences(subject)).toHaveLength(1);
});

test('a kept claim unsent for 30 days is deleted from the phone, and the next page says so; the draft went when it was kept', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const subject = `Kept too long ${Date.now()}`;
  await keepClaim(page, subject);
  // The worker's copy is the one it sends: the form's draft went as it was kept.
  expect(await page.evaluate(() => localStorage.getItem('homecare:enquiry-draft'))).toBeNull();
  // Kept 31 days ago, as a phone left in a drawer would have it.
  const keptOn = Date.now() - 31 * 24 * 60 * 60_000;
  await page.evaluate(
    (keptAt) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('homecare-kept-claims');
        open.onsuccess = () => {
          const store = open.result.transaction('claims', 'readwrite').objectStore('claims');
          const all = store.getAll();
          all.onsuccess = () => {
            const [claim] = all.result as { keptAt: number }[];
            store.put({ ...claim, keptAt });
            store.transaction.oncomplete = () => resolve();
          };
        };
        open.onerror = () => reject(open.error);
      }),
    keptOn,
  );
  await page.close();

  await relay.restore();
  const next = waitingForHydration(await context.newPage());
  await next.goto(`${relay.url}/about`);
  const day = new Date(keptOn).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: 'Europe/London' });
  await expect(next.getByRole('status').filter({ hasText: 'could not be sent within 30 days' })).toContainText(
    keptClaimNoticeText.expired(day),
  );
  await workerKeepsNothing(next);
  expect(await storedReferences(subject)).toEqual([]);
});
