import { expect, test } from './support/test';
import { CONTACT_OUTCOME_MESSAGES } from '../../content/contact';
import { parseMail } from '../support/mail-message';
import { ownLoopbackAddress, startUnreliableForwarder } from '../support/unreliable-forwarder';
import { openEngine, type EngineName, type EngineSession } from './support/engines';
import { outboxFinished } from './support/database';
import { FAKE_RECAPTCHA } from './support/fake-recaptcha';
import { peersControlUrl, productionConfigEnv, productionSiteUrl } from './test-env';

// The contact form in Firefox ESR and WebKit as a phone in a damaged house uses it, against the
// production-configuration build (reCAPTCHA with assessments, SMTP): sent before its JavaScript has
// arrived, and sent over a connection that loses the answer. Both engines reach the site through a
// local forwarder that fails the way a phone's connection does.

const engines: EngineName[] = ['firefox', 'webkit'];
const phone = { width: 375, height: 812 };
const REFERENCE = /HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/;
const recaptcha = [{ url: /^https:\/\/www\.google\.com\/recaptcha\/enterprise\.js/, contentType: 'text/javascript', body: FAKE_RECAPTCHA }];

async function mailsAbout(subject: string) {
  const mails = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as { subject: string; raw: string }[];
  return mails.filter((mail) => mail.subject.includes(subject));
}

async function fill(session: EngineSession, subject: string) {
  await session.type('#contact-name', 'Morag Visitor');
  await session.type('#contact-email', `morag.${Date.now().toString(36)}@example.com`);
  await session.type('#contact-subject', subject);
  await session.type('#contact-message', 'Water is coming through the kitchen ceiling.');
}

for (const engine of engines) {
  test(`${engine}, phone: before the page's JavaScript arrives, the form posts itself and lands on its reference; the company is told it was not checked`, async () => {
    test.setTimeout(120_000);
    const forwarder = await startUnreliableForwarder(productionSiteUrl, { blockScripts: true });
    const session = await openEngine(engine, phone, recaptcha);
    try {
      await session.goto(`${forwarder.url}/contact`, { scriptsBlocked: true });
      const subject = `${engine} no script ${Date.now()}`;
      await fill(session, subject);
      await session.click('form button[type="submit"]');
      // The address changes as the answer's document is committed, before its body is parsed: wait for that too.
      await session.waitFor(`return location.pathname === '/contact/sent' && document.readyState === 'complete'`, 30_000);
      const search = await session.evaluate<string>('return location.search');
      expect(search).toMatch(new RegExp(`^\\?reference=${REFERENCE.source}$`));
      const page = await session.evaluate<string>('return document.body.innerText');
      expect(page).toContain(CONTACT_OUTCOME_MESSAGES.success);
      const reference = search.replace('?reference=', '');
      await expect.poll(async () => (await mailsAbout(subject)).length, { timeout: 15_000 }).toBe(1);
      const mail = parseMail((await mailsAbout(subject))[0]!.raw);
      expect(mail.text.split('\n')[0]).toMatch(/^NOT CHECKED BY BOT PROTECTION/);
      expect(mail.text).toContain(`Reference: ${reference}`);
    } finally {
      await session.close();
      await forwarder.close();
    }
  });

  test(`${engine}, phone: an answer lost on the way back; the form says so, sends again by itself, and one enquiry and one notification arrive`, async () => {
    test.setTimeout(120_000);
    const forwarder = await startUnreliableForwarder(productionSiteUrl, { loseFirstAnswerTo: '/api/contact' });
    const session = await openEngine(engine, phone, recaptcha);
    try {
      await session.goto(`${forwarder.url}/contact`);
      await session.waitFor(`return !!document.querySelector('form button[type="submit"]:not([disabled])')`);
      const subject = `${engine} lost answer ${Date.now()}`;
      await fill(session, subject);
      await session.evaluate(
        // Told it may not have arrived: the form's own retry, or (a service worker in charge of the page,
        // as it is after the first load where the browser runs one) the claim kept on the phone, which the open page
        // has the worker send again a few seconds later.
        `window.__sawRetry = false; new MutationObserver(() => { if (document.querySelector('[data-testid="send-retry"], [data-testid="kept-on-phone"]')) window.__sawRetry = true; }).observe(document.body, { subtree: true, childList: true }); return true`,
      );
      await session.click('form button[type="submit"]');
      await session.waitFor(`return !!document.querySelector('[data-testid="enquiry-reference"] strong')`, 60_000);
      expect(await session.evaluate<boolean>('return window.__sawRetry')).toBe(true);
      expect(forwarder.lostAnswers()).toBeGreaterThanOrEqual(1);
      const reference = await session.evaluate<string>(
        `return document.querySelector('[data-testid="enquiry-reference"] strong').textContent`,
      );
      expect(reference).toMatch(REFERENCE);
      await expect.poll(async () => (await mailsAbout(subject)).length, { timeout: 15_000 }).toBeGreaterThan(0);
      // Every try carried the same enquiry key, and the site answered them all before the reference
      // showed; once the outbox has finished the jobs of the enquiries with this subject, no second
      // notification can come.
      await outboxFinished(productionConfigEnv.DATABASE_URL!, { subject });
      const notifications = (await mailsAbout(subject)).filter((mail) => mail.subject.startsWith('Enquiry '));
      expect(notifications.map((mail) => mail.subject)).toEqual([expect.stringContaining(reference)]);
    } finally {
      await session.close();
      await forwarder.close();
    }
  });
}

test('webkit, phone: an emergency claim offers the emergency line to call now, and the company is told it is urgent', async () => {
  test.setTimeout(120_000);
  const forwarder = await startUnreliableForwarder(productionSiteUrl, { sourceAddress: ownLoopbackAddress() });
  const session = await openEngine('webkit', phone, recaptcha);
  try {
    await session.goto(`${forwarder.url}/contact`);
    await session.waitFor(`return !!document.querySelector('form button[type="submit"]:not([disabled])')`);
    const subject = `webkit emergency ${Date.now()}`;
    await fill(session, subject);
    await session.click('#claim-toggle');
    await session.waitFor(`return getComputedStyle(document.querySelector('#claim-details')).display !== 'none'`);
    await session.click('input[name="worsening"][value="yes"]');
    await session.click('input[name="habitable"][value="no"]');
    await session.click('form button[type="submit"]');
    await session.waitFor(`return !!document.querySelector('[data-testid="urgent-call"] a')`, 60_000);
    const link = await session.evaluate<{ href: string; text: string }>(
      `const a = document.querySelector('[data-testid="urgent-call"] a'); return { href: a.getAttribute('href'), text: a.textContent }`,
    );
    expect(link).toEqual({ href: 'tel:+441414960999', text: 'Call 0141 496 0999 now' });
    await expect.poll(async () => (await mailsAbout(subject)).length, { timeout: 15_000 }).toBe(1);
    const [notification] = await mailsAbout(subject);
    expect(notification!.subject).toMatch(new RegExp(`^URGENT: Enquiry ${REFERENCE.source}: ${subject}$`));
    expect(parseMail(notification!.raw).text.split('\n').slice(0, 3)).toEqual([
      'URGENT: call back first.',
      '- The damage is still getting worse.',
      '- People cannot stay in the home tonight.',
    ]);
  } finally {
    await session.close();
    await forwarder.close();
  }
});
