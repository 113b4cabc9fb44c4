import { expect, hydrated, landBeforeHydration, test, type Page } from './support/test';
import sharp from 'sharp';
import { staffPage } from '@/content/staff-page';
import { staffVisitText } from '@/content/drying';
import { parseMail } from '../support/mail-message';
import { metadataTags, phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { crmKitchenCeiling, crmSlateRoof, galleryTile } from './support/gallery';
import { watchCspViolations } from './support/csp-violations';
import { routeRecaptcha } from './support/fake-recaptcha';
import { routes } from '../../scripts/support/routes';
import { productionFakeCrm } from './support/fake-crm';
import { peersControlUrl, productionConfigEnv, productionSiteUrl, productionFakeCrmUrl } from './test-env';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import { recaptchaTestToken } from '../support/recaptcha-tokens';
import { linkPath, londonLocal } from './support/claims';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { openTestDatabase, outboxFinished, webhooksFinished } from './support/database';

// Visitors' journeys against the production-configuration build (playwright.config.ts project
// 'production-config'): a reCAPTCHA site key with server-side assessments, SMTP, and the CRM on another
// origin. A visitor lands on some page and moves by links; the policy of the page they landed on stays
// in force for the whole visit, so every journey fails on any CSP violation.

const SUCCESS = 'Your message has been sent successfully!';

type ReceivedMail = { from: string; to: string[]; subject: string; raw: string };

const REFERENCE = /HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/;

async function mailWithSubject(subject: string): Promise<ReceivedMail[]> {
  const all = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[];
  return all.filter((mail) => mail.subject === subject);
}

async function assessmentsOf(tokenPrefix: string): Promise<number> {
  const all = (await (await fetch(`${peersControlUrl}/__control/assessments`)).json()) as { body: { event?: { token?: string } } }[];
  return all.filter((request) => request.body.event?.token?.startsWith(tokenPrefix)).length;
}

/** Fills the form the way a visitor does and sends it; returns the subject, unique to this journey, and the reference shown. */
/** An address per enquiry: each address gets one acknowledgement a day. */
const uniqueAddress = () => `morag.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

async function sendEnquiry(page: Page, journey: string): Promise<{ subject: string; reference: string; email: string }> {
  const email = uniqueAddress();
  const form = page.getByRole('form', { name: 'Send us a message' });
  // Letters, digits and spaces only, so the Subject header arrives as typed (no encoded words).
  const subject = `Burst pipe ${journey
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} ${Date.now()}`;
  await form.getByLabel(/^Name/).fill('Morag Visitor');
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Phone/).fill('0141 496 0456');
  await form.getByLabel(/^Subject/).fill(subject);
  await form.getByLabel(/^Message/).fill('Water through the kitchen ceiling since this morning. The insurer told us to contact you.');
  // Typed as soon as the fields were there; Send once the form's script has taken over (a press before
  // it is the native post, tested on its own).
  await hydrated(page);
  await expect(form.getByLabel(/^Name/)).toHaveValue('Morag Visitor');
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form.getByRole('button', { name: 'Send message' }).click();
  const response = await answered;
  expect(response.status(), await response.text()).toBe(201);
  const status = form.getByRole('status');
  await expect(status.locator('p').first()).toHaveText(SUCCESS);
  const reference = (await status.getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
  expect(reference).toMatch(REFERENCE);
  return { subject, reference, email };
}

/** The webhooks the fake CRM received for an enquiry. */
async function webhooksOf(reference: string): Promise<ReceivedWebhook[]> {
  const all = (await (await fetch(`${peersControlUrl}/__control/webhooks`)).json()) as ReceivedWebhook[];
  return all.filter((webhook) => webhook.event.data.reference === reference);
}

/**
 * Exactly one notification at the SMTP server, verified by the real assessment call, its subject naming
 * the reference the visitor was shown; and exactly one acknowledgement to the visitor with that reference.
 */
async function expectOneNotificationAndAcknowledgement({
  subject,
  reference,
  email,
}: {
  subject: string;
  reference: string;
  email: string;
}) {
  const expectedSubject = `Enquiry ${reference}: ${subject}`;
  const acknowledgementSubject = `We have your enquiry ${reference}: Example Homecare`;
  await expect.poll(async () => (await mailWithSubject(acknowledgementSubject)).length, { timeout: 15_000 }).toBe(1);
  await expect.poll(async () => (await mailWithSubject(expectedSubject)).length, { timeout: 15_000 }).toBe(1);
  // Still exactly one once the outbox has finished the enquiry's jobs: it claims only pending jobs, so
  // a second send would have reached the SMTP server before the last of them was marked done.
  await outboxFinished(productionConfigEnv.DATABASE_URL!, { reference });
  const mails = await mailWithSubject(expectedSubject);
  expect(mails).toHaveLength(1);
  expect(mails[0]!.to).toEqual([productionConfigEnv.ENQUIRY_TO]);
  expect(mails[0]!.raw).toMatch(/^Check: +verified$/m);
  expect(mails[0]!.raw.split(/\r?\n/)).toContain(`Reply-To: Morag Visitor <${email}>`);
  const acknowledgements = await mailWithSubject(acknowledgementSubject);
  expect(acknowledgements).toHaveLength(1);
  expect(acknowledgements[0]!.to).toEqual([email]);
  expect(acknowledgements[0]!.raw).not.toContain('kitchen ceiling');
}

type Way = { name: string; follow: (page: Page) => Promise<void> };

const byNavigationBar: Way = {
  name: 'the navigation bar',
  follow: (page) => page.getByRole('banner').getByRole('link', { name: 'Contact', exact: true }).first().click(),
};
const byMobileMenu: Way = {
  name: 'the mobile menu',
  follow: async (page) => {
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await toggle.click();
    await menu.getByRole('link', { name: 'Contact', exact: true }).click();
  },
};
const inMain = (label: string): Way => ({
  name: `"${label}" on the page`,
  follow: (page) => page.getByRole('main').getByRole('link', { name: label, exact: true }).click(),
});

const desktop = { width: 1280, height: 800 };
const phone = { width: 375, height: 812 };

const journeys: { landing: string; way: Way; viewport: typeof desktop }[] = [
  ...routes.map((route) => ({ landing: route.path, way: byNavigationBar, viewport: desktop })),
  ...routes.map((route) => ({ landing: route.path, way: byMobileMenu, viewport: phone })),
  { landing: '/', way: inMain('Send us an enquiry'), viewport: desktop },
  { landing: '/', way: inMain('Send us an enquiry'), viewport: phone },
  { landing: '/services', way: inMain('Contact us'), viewport: phone },
  { landing: '/sitemap', way: inMain('Contact'), viewport: desktop },
];

test.beforeEach(async () => {
  await productionFakeCrm.reset();
});

for (const { landing, way, viewport } of journeys) {
  const device = viewport === phone ? 'phone' : 'desktop';
  test(`${device}: lands on ${landing}, reaches /contact by ${way.name}, and the enquiry arrives once`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const violations = await watchCspViolations(page);
    const scripts = await routeRecaptcha(page);
    if (landing === '/contact') {
      // Landing on the form itself, the visitor starts typing before the page has hydrated.
      await landBeforeHydration(page, landing);
    } else {
      await page.goto(landing);
      // Wait for hydration so the link is followed by the client-side router, as a visitor's click is.
      await page.waitForLoadState('networkidle');
    }
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const documentsBefore = await page.evaluate(() => performance.getEntriesByType('navigation').length + performance.timeOrigin);
    await way.follow(page);
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
    // Still the landing document: the policy in force is the landing page's.
    if (landing !== '/contact') {
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length + performance.timeOrigin)).toBe(documentsBefore);
    }
    const sent = await sendEnquiry(page, `${device} ${landing} ${way.name}`);
    expect(scripts.requested).toHaveLength(1);
    expect(await assessmentsOf('03AFcWeA_valid_standin')).toBeGreaterThan(0);
    await expectOneNotificationAndAcknowledgement(sent);
    expect(await violations.all()).toEqual([]);
  });
}

test(
  'phone: an insurance claim with two phone photos, from /services by the mobile menu: the reference shown, the company’s e-mail with the claim block and the photos re-encoded without their GPS, one acknowledgement',
  { tag: '@smoke' },
  async ({ page }) => {
    // Two 4032x3024 photos downscaled in the page, then re-encoded by the server: 23.5 s on a slow machine.
    test.setTimeout(60_000);
    await page.setViewportSize(phone);
    const violations = await watchCspViolations(page);
    await routeRecaptcha(page);
    await page.goto('/services');
    await page.waitForLoadState('networkidle');
    await byMobileMenu.follow(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
    const form = page.getByRole('form', { name: 'Send us a message' });
    const subject = `Storm claim ${Date.now()}`;
    await form.getByLabel(/^Name/).fill('Morag Visitor');
    await form.getByLabel(/^Email/).fill(uniqueAddress());
    await form.getByLabel(/^Subject/).fill(subject);
    await form.getByLabel(/^Message/).fill('Slates came off in the storm and water is coming into the loft.');
    await form.getByRole('checkbox', { name: 'This is about an insurance claim' }).check();
    await form.getByLabel('Type of damage', { exact: true }).selectOption({ label: 'Storm or weather damage' });
    await form.getByLabel('Postcode of the property', { exact: true }).fill('fk1 1aa');
    await form.getByLabel('Insurer’s name', { exact: true }).fill('Example Mutual');
    const photo = withPhoneExif(await phonePhoto(21));
    await form.getByLabel('Photos of the damage (optional)').setInputFiles([
      { name: 'IMG_2001.jpg', mimeType: 'image/jpeg', buffer: photo },
      { name: 'IMG_2002.jpg', mimeType: 'image/jpeg', buffer: withPhoneExif(await phonePhoto(22)) },
    ]);
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
    await form.getByRole('button', { name: 'Send message' }).click();
    expect((await answered).status()).toBe(201);
    const reference = (await form.getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
    expect(reference).toMatch(REFERENCE);

    const expectedSubject = `Enquiry ${reference}: Storm or weather damage: ${subject}`;
    await expect.poll(async () => (await mailWithSubject(expectedSubject)).length, { timeout: 15_000 }).toBe(1);
    const mail = parseMail((await mailWithSubject(expectedSubject))[0]!.raw);
    expect(mail.text).toMatch(/^Postcode of the property: +FK1 1AA$/m);
    expect(mail.text).toMatch(/^Insurer’s name: +Example Mutual$/m);
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
    for (const attachment of mail.attachments) {
      const metadata = await sharp(attachment.content).metadata();
      expect(metadata).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
      expect(metadata.exif).toBeUndefined();
      expect(metadataTags(attachment.content).filter((tag) => !tag.startsWith('JFIF:'))).toEqual([]);
    }
    await expect
      .poll(async () => (await mailWithSubject(`We have your enquiry ${reference}: Example Homecare`)).length, { timeout: 15_000 })
      .toBe(1);

    // The company's CRM heard of it once, signed, with every field by name and its photos by signed link.
    await expect.poll(async () => (await webhooksOf(reference)).length, { timeout: 15_000 }).toBe(1);
    const [event] = await webhooksOf(reference);
    expect(event!.signed).toBe(true);
    expect(event!.event).toMatchObject({
      type: 'enquiry.received',
      version: 1,
      data: {
        reference,
        fields: { subject, postcode: 'FK1 1AA', insurer: 'Example Mutual', damageType: 'storm-weather' },
        verification: 'verified',
      },
    });
    const links = event!.event.data.photos as { position: number; url: string }[];
    expect(links.map((link) => link.position)).toEqual([1, 2]);
    const served = await page.request.get(`${productionSiteUrl}${new URL(links[0]!.url).pathname}`);
    expect(served.status()).toBe(200);
    expect(served.headers()).toMatchObject({
      'content-type': 'image/jpeg',
      'cache-control': 'private, no-store',
      'referrer-policy': 'no-referrer',
    });
    expect(metadataTags(await served.body()).filter((tag) => !tag.startsWith('JFIF:'))).toEqual([]);
    expect(await violations.all()).toEqual([]);
  },
);

test('a text-only claim, its two links e-mailed, then the same enquiry sent again with its photos: the same reference, both links still open the claim, and the CRM hears of the photos once', async ({
  page,
  request,
}) => {
  const subject = `Resent with photos ${Date.now()}`;
  const fields = {
    name: 'Morag Visitor',
    email: uniqueAddress(),
    phone: '',
    subject,
    message: 'Water through the kitchen ceiling since this morning.',
    enquiryKey: newEnquiryKey(),
  };
  const first = await request.post(`${productionSiteUrl}/api/contact`, {
    data: { ...fields, recaptchaToken: recaptchaTestToken('valid', `resend1${Date.now()}`) },
  });
  expect(first.status(), await first.text()).toBe(201);
  const { reference } = (await first.json()) as { reference: string };

  // The company's notification carries the staff link; the acknowledgement the customer's status link.
  const notificationSubject = `Enquiry ${reference}: ${subject}`;
  const acknowledgementSubject = `We have your enquiry ${reference}: Example Homecare`;
  await expect.poll(async () => (await mailWithSubject(notificationSubject)).length, { timeout: 15_000 }).toBe(1);
  await expect.poll(async () => (await mailWithSubject(acknowledgementSubject)).length, { timeout: 15_000 }).toBe(1);
  const staff = linkPath(parseMail((await mailWithSubject(notificationSubject))[0]!.raw).text, '/claim-update/');
  const status = linkPath(parseMail((await mailWithSubject(acknowledgementSubject))[0]!.raw).text, '/track/');
  await expect.poll(async () => (await webhooksOf(reference)).length, { timeout: 15_000 }).toBe(1);

  // The visitor sends the same enquiry again (its key kept) with the photo they forgot.
  const photo = withPhoneExif(await phonePhoto(31, { width: 1600, height: 1200 }));
  const again = await request.post(`${productionSiteUrl}/api/contact`, {
    multipart: {
      ...fields,
      recaptchaToken: recaptchaTestToken('valid', `resend2${Date.now()}`),
      photos: { name: 'IMG_3001.jpg', mimeType: 'image/jpeg', buffer: photo },
    },
  });
  expect(again.status(), await again.text()).toBe(201);
  expect(((await again.json()) as { reference: string }).reference).toBe(reference);

  const heard = async () =>
    (await webhooksOf(reference)).map((webhook) => [
      webhook.event.type,
      (webhook.event.data.photos as { position: number }[]).map((photo) => photo.position),
    ]);
  await expect.poll(heard, { timeout: 15_000 }).toEqual([
    ['enquiry.received', []],
    ['enquiry.photos_added', [1]],
  ]);

  for (const link of [status, staff]) {
    await page.goto(`${productionSiteUrl}${link}`);
    await expect(page.locator('main')).toContainText(reference);
    await expect(page.getByTestId('claim-link-refused')).toHaveCount(0);
  }
  // An event the links queued would be written by the time their pages answered; once the worker has
  // delivered every event of the enquiry, the CRM has heard all it ever will of it.
  await webhooksFinished(productionConfigEnv.DATABASE_URL!, { reference });
  expect(await heard()).toHaveLength(2);
});

test('desktop: lands on /, reaches /gallery by the navigation bar, and the items and the viewer’s media load from the CRM on another origin', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  const violations = await watchCspViolations(page);
  await productionFakeCrm.setGallery({
    status: 200,
    body: {
      data: [
        crmKitchenCeiling,
        crmSlateRoof,
        {
          _id: 's2',
          title: 'Roof time-lapse',
          category: 'Storm Damage',
          description: 'Re-slating in four seconds.',
          tags: ['video'],
          mimeType: 'video/mp4',
          s3Key: 'samples/roof-timelapse-sample.mp4',
        },
      ],
    },
  });
  const crmRequests: string[] = [];
  page.on('requestfinished', (request) => {
    if (request.url().startsWith(productionFakeCrmUrl)) crmRequests.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await page.getByRole('banner').getByRole('link', { name: 'Gallery', exact: true }).first().click();
  await expect(page).toHaveURL(/\/gallery$/);
  const filters = page.getByRole('group', { name: 'Filter by category' }).getByRole('button');
  await expect(filters).toHaveText(['Water Damage', 'Storm Damage']);
  const firstTile = page.getByRole('main').locator('img').first();
  await expect.poll(() => firstTile.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);

  await galleryTile(page, 'Kitchen ceiling').click();
  const viewer = page.getByRole('dialog');
  const image = viewer.getByRole('img', { name: 'Kitchen ceiling' });
  await expect(image).toBeVisible();
  expect(await image.getAttribute('src')).toContain(productionFakeCrmUrl);
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  await viewer.getByRole('button', { name: 'Next item' }).click();
  await expect(viewer.getByRole('heading')).toHaveText('Slate roof');
  const slateRoof = viewer.getByRole('img', { name: 'Slate roof' });
  await expect.poll(() => slateRoof.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  // The photo's bytes come from the CRM through the site's image optimiser, resized.
  const slateRoofUrl = `${productionFakeCrmUrl}/api/gallery/image/${encodeURIComponent('samples/slate-roof-sample.jpg')}`;
  expect(await slateRoof.evaluate((element: HTMLImageElement) => element.currentSrc)).toContain(
    `/_next/image?url=${encodeURIComponent(slateRoofUrl)}&w=`,
  );
  await viewer.getByRole('button', { name: 'Next item' }).click();
  await expect(viewer.getByRole('heading')).toHaveText('Roof time-lapse');
  await expect.poll(() => viewer.locator('video').evaluate((video: HTMLVideoElement) => video.readyState)).toBeGreaterThan(0);

  expect(crmRequests).toContain('/api/gallery/public');
  expect(await violations.all()).toEqual([]);
});

test('phone: from a search result to a service page, then to the form with the claim part open and the damage chosen: the e-mail says which and where the enquiry came from', async ({
  page,
}) => {
  await page.setViewportSize(phone);
  const violations = await watchCspViolations(page);
  await routeRecaptcha(page);
  await page.goto('/services/storm-weather?utm_source=google&utm_medium=organic&utm_campaign=winter-storms', {
    referer: 'https://www.google.com/search?q=storm+damage+repair+cumbernauld',
  });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Storm & Weather Damage');
  await page.waitForLoadState('networkidle');
  const documentsBefore = await page.evaluate(() => performance.timeOrigin);
  await page.getByRole('main').getByRole('link', { name: 'Send an enquiry about this' }).first().click();
  await expect(page).toHaveURL(/\/contact\?damage=storm-weather$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
  expect(await page.evaluate(() => performance.timeOrigin)).toBe(documentsBefore);

  const form = page.getByRole('form', { name: 'Send us a message' });
  await expect(form.getByRole('checkbox', { name: 'This is about an insurance claim' })).toBeChecked();
  await expect(form.getByLabel('Type of damage', { exact: true })).toHaveValue('storm-weather');
  await expect(form.getByLabel('Type of damage', { exact: true }).locator('option:checked')).toHaveText('Storm or weather damage');
  await form.getByLabel('Postcode of the property', { exact: true }).fill('G67 1AA');
  const { subject, reference } = await sendEnquiry(page, 'phone storm service page');

  const expectedSubject = `Enquiry ${reference}: Storm or weather damage: ${subject}`;
  await expect.poll(async () => (await mailWithSubject(expectedSubject)).length, { timeout: 15_000 }).toBe(1);
  const mail = parseMail((await mailWithSubject(expectedSubject))[0]!.raw);
  expect(mail.text).toMatch(/^Type of damage: +Storm or weather damage$/m);
  expect(mail.text).toMatch(/^Sent from: \/contact$/m);
  expect(mail.text).toMatch(/^Landed on: \/services\/storm-weather, from google \/ organic, campaign "winter-storms"$/m);
  expect(await violations.all()).toEqual([]);
});

test('desktop: an insurer’s journey, from the About page’s claim steps to the page for insurers, then to the form as a loss adjuster with the claim number', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  const violations = await watchCspViolations(page);
  await routeRecaptcha(page);
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  await page.getByRole('main').getByRole('link', { name: 'For insurers and loss adjusters: how to instruct us' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('For Insurers and Loss Adjusters');
  await expect(page.getByRole('main')).toContainText('Completion certificates');
  await page.getByRole('main').getByRole('link', { name: 'Instruct us as a loss adjuster' }).first().click();
  await expect(page).toHaveURL(/\/contact\?role=loss-adjuster$/);

  const form = page.getByRole('form', { name: 'Send us a message' });
  await expect(form.getByLabel('Who is getting in touch', { exact: true })).toHaveValue('loss-adjuster');
  await expect(form.getByLabel('Type of damage', { exact: true })).toHaveValue('');
  await form.getByLabel('Claim or policy reference', { exact: true }).fill('LA-2026-40417');
  await form.getByLabel('Insurer’s name', { exact: true }).fill('Example Mutual');
  // The instruction's own fields show with the role: the policyholder and the property.
  await form.getByLabel(/^Policyholder’s name/).fill('Ann Policy');
  await form.getByLabel(/^Policyholder’s telephone/).fill('07700 900123');
  await form.getByLabel(/^Address of the property/).fill('1 High Street, Kilsyth');
  await form.getByLabel('Postcode of the property', { exact: true }).fill('G65 0AA');
  const { subject, reference } = await sendEnquiry(page, 'desktop loss adjuster instruction');

  const expectedSubject = `Instruction ${reference}: ${subject}`;
  await expect.poll(async () => (await mailWithSubject(expectedSubject)).length, { timeout: 15_000 }).toBe(1);
  const mail = parseMail((await mailWithSubject(expectedSubject))[0]!.raw);
  expect(mail.text).toMatch(/^Instructed by: +Morag Visitor, Loss adjuster, Example Mutual$/m);
  expect(mail.text).toMatch(/^Their claim number: +LA-2026-40417$/m);
  expect(mail.text).toMatch(/^Policyholder: +Ann Policy$/m);
  expect(mail.text).toMatch(/^Landed on: \/about, from direct or unknown$/m);
  expect(await violations.all()).toEqual([]);
});

/** The 32 characters of a link's token that make it a key (its id is the enquiry's, not secret). */
const macOf = (linkPath: string) => linkPath.split('/').pop()!.split('.')[1]!;
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** Every row of every table of the production build's database, as text (blobs as their length). */
async function everyStoredRow(): Promise<string> {
  const db = openTestDatabase(productionConfigEnv.DATABASE_URL!);
  try {
    const tables = (await db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((row) => String(row.name));
    const rows = await Promise.all(tables.map(async (table) => [table, (await db.execute(`SELECT * FROM "${table}"`)).rows]));
    return JSON.stringify(rows, (_key, value: unknown) => (value instanceof ArrayBuffer ? `${value.byteLength} bytes` : value));
  } finally {
    db.close();
  }
}

test('desktop: a claim walked through its two links leaves neither token anywhere but in its own e-mails: not the CRM’s events, the error log or a later enquiry’s attribution', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await routeRecaptcha(page);
  await page.goto('/contact');
  const { reference } = await sendEnquiry(page, 'links leave no token');
  const mailOf = async (subject: string) => {
    await expect.poll(async () => (await mailWithSubject(subject)).length, { timeout: 15_000 }).toBe(1);
    return parseMail((await mailWithSubject(subject))[0]!.raw).text;
  };
  const acknowledgement = await mailOf(`We have your enquiry ${reference}: Example Homecare`);
  let notificationSubject = '';
  await expect
    .poll(async () => {
      const all = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[];
      notificationSubject = all.find((mail) => mail.subject.startsWith(`Enquiry ${reference}:`))?.subject ?? '';
      return notificationSubject;
    })
    .not.toBe('');
  const notification = await mailOf(notificationSubject);
  const linkIn = (text: string, prefix: string) =>
    new RegExp(`https://www\\.example\\.com(${prefix}[A-Za-z0-9._-]+)`).exec(text)?.[1] ?? '';
  const status = linkIn(acknowledgement, '/track/');
  const staff = linkIn(notification, '/claim-update/');
  expect(status && staff).toBeTruthy();
  const tokens = { status: macOf(status), staff: macOf(staff) };

  // The customer's link, then the company's: each traded for a cookie, the page by reference.
  await page.goto(status);
  await expect(page).toHaveURL(`${productionSiteUrl}/claims/${reference}`);
  await expect(page.getByTestId('claim-stage')).toHaveText('Received');
  await page.goto(staff);
  await expect(page).toHaveURL(`${productionSiteUrl}/claims/${reference}/update`);
  const form = page.getByTestId('staff-update');
  await form.getByLabel(staffPage.labels.stage).selectOption('survey-booked');
  await form.getByLabel(staffPage.labels.note).fill('Our surveyor will call on Wednesday.');
  await form.getByRole('button', { name: staffPage.submit }).click();
  await expect(form.getByRole('status')).toHaveText(staffPage.saved('Survey booked'));
  const stageMail = await mailOf(`Your repair ${reference}: Survey booked (Example Homecare)`);

  // A failure on the staff page, reported by the page's own logger to the CRM; and reports naming the links to the site's log.
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error(`Claim page failure at ${location.href}`);
    });
  });
  await expect
    .poll(async () => (await productionFakeCrm.errorLogs()).filter((entry) => String(entry.message).includes('Claim page failure')).length)
    .toBe(1);
  for (const link of [status, staff]) {
    const reported = await page.request.post(`${productionSiteUrl}/api/error-logs`, {
      headers: { Origin: productionSiteUrl },
      data: {
        application: 'homecare-web',
        level: 'error',
        category: 'network',
        source: 'frontend',
        message: `HTTP 500 from GET ${link}`,
        path: link,
        metadata: { url: `https://www.example.com${link}`, page: link },
      },
    });
    expect(reported.status()).toBe(201);
  }

  // A later enquiry whose visit landed on the status link and was referred by the staff link.
  await page.route(`${productionSiteUrl}/api/contact`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
    await route.continue({
      postData: JSON.stringify({ ...body, landingPage: status, referrer: `https://www.example.com${staff}`, sentFrom: staff }),
    });
  });
  await page.goto('/contact');
  const later = await sendEnquiry(page, 'landed on a link');
  await page.unroute(`${productionSiteUrl}/api/contact`);
  await mailOf(`We have your enquiry ${later.reference}: Example Homecare`);
  await expect.poll(async () => (await webhooksOf(later.reference)).length, { timeout: 15_000 }).toBe(1);
  await expect.poll(async () => (await webhooksOf(reference)).map((webhook) => webhook.event.type)).toContain('claim.updated');

  // Each e-mail carries only its own links: the customer's the status link, the company's both (one of each).
  expect(occurrences(acknowledgement, tokens.status)).toBe(1);
  expect(occurrences(stageMail, tokens.status)).toBe(1);
  expect(occurrences(notification, tokens.staff)).toBe(1);
  expect(occurrences(notification, tokens.status)).toBe(1);
  for (const text of [acknowledgement, stageMail]) expect(text).not.toContain(tokens.staff);
  const everyOtherMail = ((await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[])
    .map((mail) => parseMail(mail.raw))
    .filter((mail) => !mail.subject.includes(reference))
    .map((mail) => mail.text)
    .join('\n');
  const crmEvents = JSON.stringify(
    [...(await webhooksOf(reference)), ...(await webhooksOf(later.reference))].map((webhook) => webhook.body),
  );
  const crmErrorLog = JSON.stringify(await productionFakeCrm.errorLogs());
  const stored = await everyStoredRow();
  expect(stored).toContain(reference);
  for (const token of [tokens.status, tokens.staff]) {
    expect(everyOtherMail, 'another e-mail').not.toContain(token);
    expect(crmEvents, "the CRM's events").not.toContain(token);
    expect(crmErrorLog, "the CRM's error log").not.toContain(token);
    expect(stored, 'the database').not.toContain(token);
  }
});

test('desktop: a drying visit recorded on the staff page reaches the CRM once, signed, after the claim, with its readings, machines and kWh so far', async ({
  page,
  request,
}) => {
  const subject = `Drying visit ${Date.now()}`;
  const sent = await request.post(`${productionSiteUrl}/api/contact`, {
    data: {
      name: 'Morag Visitor',
      email: uniqueAddress(),
      phone: '',
      subject,
      message: 'Water through the kitchen ceiling since this morning.',
      recaptchaToken: recaptchaTestToken('valid', `drying${Date.now()}`),
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { reference } = (await sent.json()) as { reference: string };
  const notificationSubject = `Enquiry ${reference}: ${subject}`;
  await expect.poll(async () => (await mailWithSubject(notificationSubject)).length, { timeout: 15_000 }).toBe(1);
  const staff = linkPath(parseMail((await mailWithSubject(notificationSubject))[0]!.raw).text, '/claim-update/');
  await expect
    .poll(async () => (await webhooksOf(reference)).map((webhook) => webhook.event.type), { timeout: 15_000 })
    .toEqual(['enquiry.received']);

  // A 700 W dehumidifier switched on a day before the visit: 16.8 kWh so far, from its rating.
  const visitAt = new Date(Math.floor((Date.now() - 60 * 60_000) / 60_000) * 60_000);
  const switchedOn = new Date(visitAt.getTime() - 24 * 60 * 60_000);
  await page.goto(staff);
  await expect(page).toHaveURL(`${productionSiteUrl}/claims/${reference}/update`);
  const form = page.getByRole('region', { name: staffVisitText.heading }).getByTestId('staff-visit');
  await form.getByLabel(staffVisitText.visitAt).fill(londonLocal(visitAt));
  const location = form.getByRole('group', { name: staffVisitText.locationRow(1) });
  await location.getByLabel(staffVisitText.labels.location).fill('Kitchen wall');
  await location.getByLabel(staffVisitText.labels.material).selectOption('plaster');
  await location.getByLabel(staffVisitText.labels.scale).selectOption({ label: staffVisitText.scales.wme });
  await location.getByLabel(staffVisitText.labels.value).fill('28');
  await location.getByLabel(staffVisitText.labels.goal).fill('12');
  const machine = form.getByRole('group', { name: staffVisitText.machineRow(1) });
  await machine.getByLabel(staffVisitText.machineLabels.kind).selectOption('dehumidifier');
  await machine.getByLabel(staffVisitText.machineLabels.model).fill('Ebac BD150');
  await machine.getByLabel(staffVisitText.machineLabels.watts).fill('700');
  await machine.getByLabel(staffVisitText.machineLabels.on).fill(londonLocal(switchedOn));
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(page.getByText(staffVisitText.saved(1, 1))).toBeVisible();

  const dryingEvents = async () => (await webhooksOf(reference)).filter((webhook) => webhook.event.type === 'claim.drying_recorded');
  await expect.poll(async () => (await dryingEvents()).length, { timeout: 15_000 }).toBe(1);
  const types = (await webhooksOf(reference)).map((webhook) => webhook.event.type);
  expect(types.indexOf('enquiry.received')).toBeGreaterThanOrEqual(0);
  expect(types.indexOf('enquiry.received')).toBeLessThan(types.indexOf('claim.drying_recorded'));
  const [event] = await dryingEvents();
  expect(event!.signed).toBe(true);
  expect(event!.event).toMatchObject({ type: 'claim.drying_recorded', version: 1 });
  expect(event!.event.data).toEqual({
    reference,
    visitAt: visitAt.toISOString(),
    readings: [{ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: 28, goal: 12, temperature: null, humidity: null }],
    equipment: [
      {
        kind: 'dehumidifier',
        model: 'Ebac BD150',
        watts: 700,
        count: 1,
        on: switchedOn.toISOString(),
        off: null,
        kwh: null,
        hoursSoFar: 24,
        kwhSoFar: 16.8,
        kwhFrom: 'rated',
      },
    ],
    kwhSoFar: 16.8,
  });
  // Still told once when the worker has delivered every event of the enquiry: it delivers only pending
  // events, so a second delivery would have reached the CRM before the last of them was marked delivered.
  await webhooksFinished(productionConfigEnv.DATABASE_URL!, { reference });
  expect(await dryingEvents()).toHaveLength(1);
});
