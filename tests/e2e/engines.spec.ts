import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './support/test';
import sharp from 'sharp';
import { CONTACT_MESSAGES, CONTACT_OUTCOME_MESSAGES } from '../../content/contact';
import { PHOTO_FIELD } from '../../lib/contact-fields';
import { parseMail } from '../support/mail-message';
import { phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { crmKitchenCeiling, crmSlateRoof } from './support/gallery';
import { HYDRATED } from './support/hydration';
import { openEngine, type EngineName, type EngineSession, type Viewport } from './support/engines';
import { FAKE_RECAPTCHA } from './support/fake-recaptcha';
import { routes, searchRoutes } from '../../scripts/support/routes';
import { productionFakeCrm } from './support/fake-crm';
import { peersControlUrl, productionSiteUrl } from './test-env';

// The visitors' journeys in the two engines besides Chromium (Firefox ESR and WebKitGTK's MiniBrowser,
// from Debian), against the production-configuration build: the reCAPTCHA site key with assessments,
// SMTP and the CRM on another origin. Each lands on / and moves by links, as visitors do. The claim sent
// with a photo is then followed: the look-up, the staff page and the customer's page.

const sizes: Record<'phone' | 'desktop', Viewport> = { phone: { width: 375, height: 812 }, desktop: { width: 1280, height: 800 } };
const engines: EngineName[] = ['firefox', 'webkit'];
const REFERENCE = /HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/;

// Google's script, answered by the same fake the Chromium journeys use (Firefox can intercept it).
const recaptcha = [{ url: /^https:\/\/www\.google\.com\/recaptcha\/enterprise\.js/, contentType: 'text/javascript', body: FAKE_RECAPTCHA }];

// The gallery as the CRM on another origin serves it: two categories, photos under both media rules.
const galleryItems = [
  crmKitchenCeiling,
  crmSlateRoof,
  { ...crmKitchenCeiling, _id: 'w2', title: 'Kitchen ceiling again', description: 'The same ceiling, painted.' },
];

const text = (value: string) => JSON.stringify(value);
type Route = (typeof routes)[number] | (typeof searchRoutes)[number];
const searchRoute = (path: string) => searchRoutes.find((route) => route.path === path)!;
/** Every route in the order the walk takes them: a service page from the services page's card, the insurers' page from the footer. */
const walk: Route[] = [...routes.slice(1), routes[0]].flatMap((route): Route[] =>
  route.path === '/services'
    ? [route, searchRoute('/services/storm-weather')]
    : route.path === '/sitemap'
      ? [route, searchRoute('/insurers')]
      : [route],
);

const onRoute = (route: Route) =>
  `return location.pathname === ${text(route.path)} && document.querySelector('h1')?.textContent === ${text(route.h1)}`;

// A mail client on another site: a page whose one link is the address after its #, as an e-mail's link is clicked.
const MAIL_CLIENT = 'https://mail.example.test/inbox';
const mailClient = {
  url: /^https:\/\/mail\.example\.test\//,
  contentType: 'text/html',
  body: `<!doctype html><title>Inbox</title><a id="open" href="#">Open</a><script>document.getElementById('open').href = decodeURIComponent(location.hash.slice(1));</script>`,
};

async function withEngine(name: EngineName, viewport: Viewport, run: (session: EngineSession) => Promise<void>) {
  const session = await openEngine(name, viewport, [...recaptcha, mailClient]);
  try {
    await run(session);
  } finally {
    await session.close();
  }
}

test.afterEach(async () => {
  await productionFakeCrm.reset();
});

for (const engine of engines) {
  for (const [size, viewport] of Object.entries(sizes)) {
    test(`${engine}, ${size}: lands on / and moves by links through every route, with no error, CSP violation or failed request`, async () => {
      test.setTimeout(120_000);
      await withEngine(engine, viewport, async (session) => {
        await session.goto(`${productionSiteUrl}/`);
        await session.waitFor(onRoute(routes[0]));
        await session.evaluate('window.__landedHere = true;');
        for (const route of walk) {
          if (route.path.startsWith('/services/')) {
            await session.click(`main a[href="${route.path}"]`);
          } else if (route.navLabel && size === 'phone') {
            await session.click('nav[aria-label="Main"] button[aria-controls]');
            await session.waitFor(
              `return document.getElementById(document.querySelector('nav[aria-label="Main"] button').getAttribute('aria-controls')).matches(':popover-open')`,
            );
            await session.click(`nav[aria-label="Main"] div[id] a[href="${route.path}"]`);
          } else if (route.navLabel) {
            await session.click(`nav[aria-label="Main"] > ul a[href="${route.path}"]`);
          } else {
            await session.click(`footer a[href="${route.path}"]`);
          }
          await session.waitFor(onRoute(route));
          if (size === 'phone' && route.navLabel && !route.path.startsWith('/services/')) {
            // The link closed the menu.
            await session.waitFor(
              `return document.getElementById(document.querySelector('nav[aria-label="Main"] button').getAttribute('aria-controls')).matches(':popover-open') === false`,
            );
          }
        }
        // Client-side navigation all the way: still the document the visitor landed on.
        expect(await session.evaluate('return window.__landedHere === true')).toBe(true);
        expect(await session.problems()).toEqual([]);
      });
    });
  }

  test(`${engine}, phone: a service page's enquiry button opens the form with the claim part open and the damage chosen, the insurers' page with the role chosen`, async () => {
    test.setTimeout(90_000);
    await withEngine(engine, sizes.phone, async (session) => {
      await session.goto(`${productionSiteUrl}/services/storm-weather`);
      await session.waitFor(onRoute(searchRoute('/services/storm-weather')));
      await session.evaluate('window.__landedHere = true;');
      await session.click('main a[href="/contact?damage=storm-weather"]');
      await session.waitFor(
        `return location.pathname === '/contact' && document.getElementById('claim-toggle')?.checked === true && document.getElementById('claim-damageType')?.value === 'storm-weather'`,
      );
      await session.click('footer a[href="/insurers"]');
      await session.waitFor(onRoute(searchRoute('/insurers')));
      await session.click('main a[href="/contact?role=loss-adjuster"]');
      await session.waitFor(
        // The instruction's fields show by CSS with the role chosen.
        `return location.pathname === '/contact' && document.getElementById('claim-claimRole')?.value === 'loss-adjuster' && document.getElementById('claim-policyholderName')?.offsetParent !== null`,
      );
      expect(await session.problems()).toEqual([]);
    });
  });

  test(`${engine}, phone: the footer badge's dialog and an accreditation dialog by keyboard alone`, async () => {
    test.setTimeout(90_000);
    await withEngine(engine, sizes.phone, async (session) => {
      await session.goto(`${productionSiteUrl}/`);
      await session.click('nav[aria-label="Main"] button[aria-controls]');
      await session.click('nav[aria-label="Main"] div[id] a[href="/about"]');
      await session.waitFor(onRoute(routes.find((route) => route.path === '/about')!));
      const openers = {
        'the footer badge': `document.querySelector('footer button[aria-haspopup="dialog"]')`,
        'SEPA Approved': `[...document.querySelectorAll('main button')].find((button) => button.textContent.includes('SEPA Approved'))`,
      };
      for (const [label, opener] of Object.entries(openers)) {
        await session.evaluate(`window.__opener = ${opener}; window.__opener.focus();`);
        await session.press('Enter');
        await session.waitFor(`return !!document.querySelector('dialog[open]')`);
        const inside = `return document.querySelector('dialog[open]').contains(document.activeElement)`;
        expect(await session.evaluate(inside), `${label}: focus moves in`).toBe(true);
        const focused = new Set<string>();
        for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab'] as const) {
          await session.press(key);
          expect(await session.evaluate(inside), `${label}: focus stays in after ${key}`).toBe(true);
          focused.add(await session.evaluate<string>('return document.activeElement.outerHTML.slice(0, 120)'));
        }
        // The keys really moved focus (between the close button and the link at least).
        expect(focused.size, `${label}: Tab moves focus`).toBeGreaterThan(1);
        await session.press('Escape');
        await session.waitFor(`return !document.querySelector('dialog[open]')`);
        expect(await session.evaluate('return document.activeElement === window.__opener'), `${label}: focus returns`).toBe(true);
      }
      expect(await session.problems()).toEqual([]);
    });
  });

  test(`${engine}, phone: the gallery's filter, its viewer by click and by keyboard, arrow keys wrapping, Escape, no scroll behind`, async () => {
    test.setTimeout(90_000);
    await productionFakeCrm.setGallery({ status: 200, body: { data: galleryItems } });
    await withEngine(engine, sizes.phone, async (session) => {
      await session.goto(`${productionSiteUrl}/`);
      await session.click('nav[aria-label="Main"] button[aria-controls]');
      await session.click('nav[aria-label="Main"] div[id] a[href="/gallery"]');
      await session.waitFor(`return document.querySelectorAll('button[data-gallery-item]').length > 1`, 20_000);
      const filters = `document.querySelectorAll('[role="group"] button')`;
      await session.click('[role="group"] > button:nth-child(2)');
      await session.waitFor(
        `return ${filters}[1].getAttribute('aria-pressed') === 'true' && ${filters}[0].getAttribute('aria-pressed') === 'false'`,
      );
      await session.click('[role="group"] > button:nth-child(1)');
      await session.waitFor(`return ${filters}[0].getAttribute('aria-pressed') === 'true'`);

      await session.evaluate(`window.scrollTo(0, 200);`);
      await session.click('button[data-gallery-item]');
      await session.waitFor(`return !!document.querySelector('dialog[open] [data-testid="viewer-counter"]')`);
      const counter = `return document.querySelector('[data-testid="viewer-counter"]').textContent`;
      const first = await session.evaluate<string>(counter);
      const total = Number(/^1 of (\d+)$/.exec(first)?.[1]);
      expect(total).toBeGreaterThan(1);
      await session.press('ArrowRight');
      await session.waitFor(`${counter} === '2 of ${total}'`);
      await session.press('ArrowLeft');
      await session.press('ArrowLeft');
      await session.waitFor(`${counter} === '${total} of ${total}'`);
      // The page behind does not scroll while the viewer is open: the lock is in force, and in Firefox
      // the mouse wheel does not move the page (WebKitWebDriver's wheel action scrolls nothing at all).
      const overflow = `return getComputedStyle(document.documentElement).overflowY`;
      expect(await session.evaluate(overflow)).toBe('hidden');
      const before = await session.evaluate<number>('return window.scrollY');
      if (engine === 'firefox') {
        // The wheel as the page gets it, and two frames drawn after it: a scroll it started would have
        // moved the page by then (no later event marks a scroll that did not happen).
        await session.evaluate(
          `window.__wheeled = false; addEventListener('wheel', () => requestAnimationFrame(() => requestAnimationFrame(() => { window.__wheeled = true; })), { capture: true, passive: true, once: true }); return true;`,
        );
        await session.wheel(600);
        await session.waitFor('return window.__wheeled === true');
        expect(await session.evaluate<number>('return window.scrollY')).toBe(before);
      }
      await session.press('Escape');
      await session.waitFor(`return !document.querySelector('dialog[open]')`);
      expect(await session.evaluate(`return document.activeElement === document.querySelector('button[data-gallery-item]')`)).toBe(true);
      expect(await session.evaluate(overflow)).not.toBe('hidden');
      if (engine === 'firefox') {
        // With the viewer closed the same wheel scrolls the page: the check above could fail.
        await session.wheel(600);
        await session.waitFor(`return window.scrollY > ${before}`);
      }
      await session.evaluate(`document.querySelector('button[data-gallery-item]').focus();`);

      // By keyboard alone: Enter on the focused tile opens it, Escape closes it.
      await session.press('Enter');
      await session.waitFor(`return !!document.querySelector('dialog[open]')`);
      expect(await session.evaluate(`return document.querySelector('dialog[open]').contains(document.activeElement)`)).toBe(true);
      await session.press('Escape');
      await session.waitFor(`return !document.querySelector('dialog[open]')`);
      expect(await session.problems()).toEqual([]);
    });
  });

  test(`${engine}: the contact form's validation messages, verbatim, when sent empty`, async () => {
    test.setTimeout(90_000);
    await withEngine(engine, sizes.desktop, async (session) => {
      await session.goto(`${productionSiteUrl}/contact`);
      await session.click('form button[type="submit"]');
      const messages = [CONTACT_MESSAGES.name, CONTACT_MESSAGES.email, CONTACT_MESSAGES.subject, CONTACT_MESSAGES.message];
      await session.waitFor(
        `return ${text(messages.join('\n'))}.split('\\n').every((message) => document.querySelector('form').innerText.includes(message))`,
      );
      for (const field of ['name', 'email', 'subject', 'message'])
        expect(await session.evaluate(`return document.getElementById('contact-${field}').getAttribute('aria-invalid')`)).toBe('true');
    });
  });
}

// Records, in the page, each photo the form hands to fetch or XMLHttpRequest: its type, bytes, pixel size and whether an
// EXIF block is still in it. This is what leaves the phone, before the server re-encodes anything.
const RECORD_SENT_PHOTOS = `
  window.__sentPhotos = [];
  const describe = async (file) => {
    const head = new Uint8Array(await file.slice(0, 65536).arrayBuffer());
    const exif = [...head.keys()].some((index) => head[index] === 0x45 && head[index + 1] === 0x78 && head[index + 2] === 0x69 && head[index + 3] === 0x66 && head[index + 4] === 0);
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.src = url;
    await image.decode();
    URL.revokeObjectURL(url);
    return { name: file.name, type: file.type, bytes: file.size, width: image.naturalWidth, height: image.naturalHeight, exif };
  };
  const record = (body) => {
    if (body instanceof FormData) for (const file of body.getAll(${JSON.stringify(PHOTO_FIELD)})) window.__sentPhotos.push(describe(file));
  };
  const send = window.fetch;
  window.fetch = (input, init) => {
    record(init && init.body);
    return send(input, init);
  };
  // An upload with progress goes through XMLHttpRequest.
  const sendXhr = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    record(body);
    return sendXhr.call(this, body);
  };`;

type SentPhoto = { name: string; type: string; bytes: number; width: number; height: number; exif: boolean };

/**
 * A visitor on a phone lands on /services, opens the menu, follows it to /contact and sends a claim with
 * one full-size phone photo (EXIF and GPS included). Returns what the form sent and the e-mail that
 * reached the SMTP fake.
 */
async function sendClaimWithPhoto(session: EngineSession, label: string, beforeSending = '') {
  const folder = mkdtempSync(path.join(tmpdir(), 'homecare-engine-photo-'));
  const photoFile = path.join(folder, 'IMG_5001.jpg');
  const photo = withPhoneExif(await phonePhoto(51));
  writeFileSync(photoFile, photo);
  try {
    await session.goto(`${productionSiteUrl}/services`);
    await session.click('nav[aria-label="Main"] button[aria-controls]');
    await session.click('nav[aria-label="Main"] div[id] a[href="/contact"]');
    await session.waitFor(onRoute(routes.find((route) => route.path === '/contact')!));
    await session.evaluate(RECORD_SENT_PHOTOS + beforeSending);
    const subject = `${label} ${Date.now()}`;
    const email = `morag.${Date.now().toString(36)}@example.com`;
    await session.type('#contact-name', 'Morag Visitor');
    await session.type('#contact-email', email);
    await session.type('#contact-subject', subject);
    await session.type('#contact-message', 'Slates came off in the storm and water is coming into the loft.');
    await session.click('#claim-toggle');
    await session.evaluate(
      `const select = document.getElementById('claim-damageType'); select.focus(); select.value = 'storm-weather'; select.dispatchEvent(new Event('change', { bubbles: true }));`,
    );
    await session.upload('#contact-photos', photoFile);
    await session.waitFor(`return document.querySelector('form').innerText.includes('IMG_5001.jpg')`, 20_000);
    await session.click('form button[type="submit"]');
    await session.waitFor(`return !!document.querySelector('[data-testid="enquiry-reference"] strong')`, 60_000);
    const success = await session.evaluate<string>(
      `return document.querySelector('[data-testid="enquiry-reference"]').parentElement.innerText`,
    );
    const reference = await session.evaluate<string>(
      `return document.querySelector('[data-testid="enquiry-reference"] strong').textContent`,
    );
    const sent = await session.evaluate<SentPhoto[]>('return Promise.all(window.__sentPhotos)');
    const expectedSubject = `Enquiry ${reference}: Storm or weather damage: ${subject}`;
    let raw = '';
    await expect
      .poll(
        async () => {
          const mails = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as { subject: string; raw: string }[];
          raw = mails.find((mail) => mail.subject === expectedSubject)?.raw ?? '';
          return raw !== '';
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    return { original: photo, success, reference, email, sent, mail: parseMail(raw) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// What each engine does with a 4032x3024 photo before it leaves the phone. Both decode it with
// createImageBitmap and send a JPEG of at most 2048 px without its EXIF; an engine that could not
// would send it as it is (the server re-encodes whatever arrives), as the test after these shows.
const inBrowser: Record<EngineName, 'downscaled' | 'sent as it is'> = { firefox: 'downscaled', webkit: 'downscaled' };

for (const engine of engines) {
  test(`${engine}, phone: a claim with one 4032x3024 phone photo from /services is ${inBrowser[engine]} in the browser; the reference shown; the e-mail carries the photo; the claim is then followed at /track and by its links`, async () => {
    test.setTimeout(150_000);
    await withEngine(engine, sizes.phone, async (session) => {
      const { original, success, reference, email, sent, mail } = await sendClaimWithPhoto(session, `${engine} claim`);
      expect(reference).toMatch(REFERENCE);
      expect(success).toContain(CONTACT_OUTCOME_MESSAGES.success);
      expect(sent).toHaveLength(1);
      const [photo] = sent;
      test.info().annotations.push({
        type: 'photo sent',
        description: `${engine}: ${photo!.width}x${photo!.height} ${photo!.type}, ${photo!.bytes} bytes (from 4032x3024, ${original.length} bytes), EXIF ${photo!.exif ? 'kept' : 'dropped'}`,
      });
      if (inBrowser[engine] === 'downscaled') {
        expect(photo).toMatchObject({ name: 'IMG_5001.jpg', type: 'image/jpeg', width: 2048, height: 1536, exif: false });
        expect(photo!.bytes).toBeLessThan(original.length / 3);
      } else {
        expect(photo).toMatchObject({ bytes: original.length, width: 4032, height: 3024 });
      }
      expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
      const attached = await sharp(mail.attachments[0]!.content).metadata();
      expect([attached.width, attached.height, attached.exif]).toEqual([2048, 1536, undefined]);
      await followClaim(session, { reference, email, notification: mail.text });
      expect(await session.problems()).toEqual([]);
    });
  });
}

/**
 * The claim after it was sent: the look-up at /track by its reference and address, the company's staff
 * page by the link in its notification (Save moves the stage), and the customer's page by its link, each
 * link opened from a mail client on another site.
 */
async function followClaim(session: EngineSession, claim: { reference: string; email: string; notification: string }) {
  const linkPath = (prefix: string) => new RegExp(`https://www\\.example\\.com(${prefix}[A-Za-z0-9._-]+)`).exec(claim.notification)?.[1];
  const staff = linkPath('/claim-update/');
  const status = linkPath('/track/');
  expect(staff && status).toBeTruthy();
  const stageShown = (words: string) => `return document.querySelector('[data-testid="claim-stage"]')?.textContent === ${text(words)}`;

  await session.goto(`${productionSiteUrl}/track`);
  await session.type('#track-reference', claim.reference);
  await session.type('#track-email', claim.email);
  await session.click('[data-testid="claim-look-up"] button[type="submit"]');
  await session.waitFor(stageShown('Received'), 20_000);
  // Left only once its page has loaded: a pressed look-up may answer before the page's own chunks have
  // come, and a browser cuts off what it is still loading when the visitor moves on.
  await session.waitFor(`return ${HYDRATED}`, 15_000);

  // Each link opened from the mail client: its token traded for a cookie, the page by reference, no token in the address bar.
  const openFromMail = async (path: string, page: string, shown: string) => {
    const url = `${productionSiteUrl}${path}`;
    await session.goto(`${MAIL_CLIENT}#${encodeURIComponent(url)}`, { scriptsBlocked: true });
    await session.waitFor(`return document.getElementById('open')?.href === ${text(url)}`);
    await session.click('#open');
    await session.waitFor(`return location.pathname === ${text(page)} && (${shown})`, 20_000);
    expect(await session.evaluate<string>('return location.href')).toBe(`${productionSiteUrl}${page}`);
    expect(await session.evaluate<string>('return document.cookie')).not.toContain('claim-');
    await session.waitFor(`return ${HYDRATED}`, 15_000);
  };
  await openFromMail(staff!, `/claims/${claim.reference}/update`, `document.querySelector('[data-testid="staff-update"]') !== null`);
  await session.evaluate(
    `const select = document.getElementById('update-stage'); select.focus(); select.value = 'survey-booked'; select.dispatchEvent(new Event('change', { bubbles: true }));`,
  );
  await session.type('#update-note', 'Our surveyor will call on Wednesday.');
  await session.click('[data-testid="staff-update"] button[type="submit"]');
  await session.waitFor(
    `return document.querySelector('[data-testid="staff-update"]').innerText.includes('Saved: the claim is now at')`,
    20_000,
  );

  await openFromMail(status!, `/claims/${claim.reference}`, stageShown('Survey booked').replace(/^return /, ''));
  expect(await session.evaluate<string>(`return document.querySelector('[data-testid="claim-timeline"]').innerText`)).toContain(
    'Our surveyor will call on Wednesday.',
  );
}

test('webkit, phone: a browser without createImageBitmap (Safari before 15) sends the photo as it is, and the claim still arrives with it re-encoded', async () => {
  test.setTimeout(150_000);
  await withEngine('webkit', sizes.phone, async (session) => {
    const { original, reference, sent, mail } = await sendClaimWithPhoto(
      session,
      'Older WebKit claim',
      'window.createImageBitmap = undefined;',
    );
    expect(reference).toMatch(REFERENCE);
    expect(sent).toEqual([{ name: 'IMG_5001.jpg', type: 'image/jpeg', bytes: original.length, width: 4032, height: 3024, exif: true }]);
    const attached = await sharp(mail.attachments[0]!.content).metadata();
    expect([mail.attachments.length, attached.width, attached.height, attached.exif]).toEqual([1, 2048, 1536, undefined]);
    expect(await session.problems()).toEqual([]);
  });
});
