import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CONTACT_MESSAGES } from '../../content/contact';
import { parseMail } from '../support/mail-message';
import { phonePhoto } from '../support/photo-fixtures';
import { openEngine, type EngineName, type EngineSession, type Viewport } from './support/engines';
import { STAND_IN_RECAPTCHA } from './support/recaptcha-stand-in';
import { routes } from './support/routes';
import { peersControlUrl, productionSiteUrl } from './test-env';

// The visitors' journeys in the two engines besides Chromium (Firefox ESR and WebKitGTK's MiniBrowser,
// from Debian), against the production-configuration build: the reCAPTCHA site key with assessments,
// SMTP and the CRM on another origin. Each lands on / and moves by links, as visitors do.

const sizes: Record<'phone' | 'desktop', Viewport> = { phone: { width: 375, height: 812 }, desktop: { width: 1280, height: 800 } };
const engines: EngineName[] = ['firefox', 'webkit'];
const REFERENCE = /HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/;

// Google's script, answered by the same stand-in the Chromium journeys use (Firefox can intercept it).
const recaptcha = [
  { url: /^https:\/\/www\.google\.com\/recaptcha\/enterprise\.js/, contentType: 'text/javascript', body: STAND_IN_RECAPTCHA },
];

const text = (value: string) => JSON.stringify(value);
const onRoute = (route: (typeof routes)[number]) =>
  `return location.pathname === ${text(route.path)} && document.querySelector('h1')?.textContent === ${text(route.h1)}`;

async function withEngine(name: EngineName, viewport: Viewport, run: (session: EngineSession) => Promise<void>) {
  const session = await openEngine(name, viewport, recaptcha);
  try {
    await run(session);
  } finally {
    await session.close();
  }
}

for (const engine of engines) {
  for (const [size, viewport] of Object.entries(sizes)) {
    test(`${engine}, ${size}: lands on / and moves by links through every route, with no error, CSP violation or failed request`, async () => {
      test.setTimeout(120_000);
      await withEngine(engine, viewport, async (session) => {
        await session.goto(`${productionSiteUrl}/`);
        await session.waitFor(onRoute(routes[0]));
        await session.evaluate('window.__landedHere = true;');
        for (const route of [...routes.slice(1), routes[0]]) {
          if (route.navLabel && size === 'phone') {
            await session.click('nav[aria-label="Main"] button[aria-controls]');
            await session.waitFor(
              `return document.getElementById(document.querySelector('nav[aria-label="Main"] button').getAttribute('aria-controls')).hidden === false`,
            );
            await session.click(`nav[aria-label="Main"] div[id] a[href="${route.path}"]`);
          } else if (route.navLabel) {
            await session.click(`nav[aria-label="Main"] > ul a[href="${route.path}"]`);
          } else {
            await session.click(`footer a[href="${route.path}"]`);
          }
          await session.waitFor(onRoute(route));
          if (size === 'phone' && route.navLabel) {
            // The link closed the menu.
            await session.waitFor(
              `return document.getElementById(document.querySelector('nav[aria-label="Main"] button').getAttribute('aria-controls')).hidden === true`,
            );
          }
        }
        // Client-side navigation all the way: still the document the visitor landed on.
        expect(await session.evaluate('return window.__landedHere === true')).toBe(true);
        expect(await session.problems()).toEqual([]);
      });
    });
  }

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

test('firefox, phone: a claim with one 4032x3024 phone photo from /services: the reference shown, the e-mail with the photo at the SMTP stand-in', async () => {
  test.setTimeout(120_000);
  const folder = mkdtempSync(path.join(tmpdir(), 'homecare-engine-photo-'));
  const photoFile = path.join(folder, 'IMG_5001.jpg');
  writeFileSync(photoFile, await phonePhoto(51));
  try {
    await withEngine('firefox', sizes.phone, async (session) => {
      await session.goto(`${productionSiteUrl}/services`);
      await session.click('nav[aria-label="Main"] button[aria-controls]');
      await session.click('nav[aria-label="Main"] div[id] a[href="/contact"]');
      await session.waitFor(onRoute(routes.find((route) => route.path === '/contact')!));
      const subject = `Firefox claim ${Date.now()}`;
      await session.type('#contact-name', 'Morag Visitor');
      await session.type('#contact-email', `morag.${Date.now().toString(36)}@example.com`);
      await session.type('#contact-subject', subject);
      await session.type('#contact-message', 'Slates came off in the storm and water is coming into the loft.');
      await session.click('#claim-toggle');
      await session.evaluate(
        `const select = document.getElementById('claim-damageType'); select.focus(); select.value = 'storm-weather'; select.dispatchEvent(new Event('change', { bubbles: true }));`,
      );
      await session.upload('#contact-photos', photoFile);
      await session.waitFor(`return document.querySelector('form').innerText.includes('IMG_5001.jpg')`, 20_000);
      await session.click('form button[type="submit"]');
      await session.waitFor(`return !!document.querySelector('[data-testid="enquiry-reference"] strong')`, 30_000);
      const reference = await session.evaluate<string>(
        `return document.querySelector('[data-testid="enquiry-reference"] strong').textContent`,
      );
      expect(reference).toMatch(REFERENCE);
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
      expect(parseMail(raw).attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
      expect(await session.problems()).toEqual([]);
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
