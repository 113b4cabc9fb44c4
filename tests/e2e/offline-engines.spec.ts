import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from './support/test';
import { keptClaimText, offlinePage } from '../../content/offline';
import { keptClaimNoticeText } from '../../content/kept-claim-notices';
import { parseMail } from '../support/mail-message';
import { phonePhoto, withPhoneExif } from '../support/photo-fixtures';
import { ownLoopbackAddress } from '../support/unreliable-forwarder';
import { openTestDatabase, outboxFinished } from './support/database';
import { startEngineRelay } from './support/engine-relay';
import { openEngine, type EngineName, type EngineSession } from './support/engines';
import { FAKE_RECAPTCHA } from './support/fake-recaptcha';
import { ASK_WORKER_FOR_A_ROUND, WORKER_KEEPS_NOTHING } from './support/kept-claims';
import { peersControlUrl, productionConfigEnv, productionSiteUrl } from './test-env';

// A claim sent with no signal in Firefox ESR and WebKit, against the production-configuration build
// (bot protection on, SMTP): the service worker keeps the claim form, keeps the claim the form could not
// send, and sends it once when a page of the site is opened with the signal back. Neither engine has
// Background Sync, and neither driver's offline switch reaches a worker's own requests, so the site is
// reached through a relay (tests/e2e/support/engine-relay.ts) that is cut and restored, on 127.0.0.1 (which
// the harness's WebKit proxy lets go direct). Decision 0059 says what each engine does and why.

const phone = { width: 375, height: 812 };
const REFERENCE = /HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/;
const recaptcha = [{ url: /^https:\/\/www\.google\.com\/recaptcha\/enterprise\.js/, contentType: 'text/javascript', body: FAKE_RECAPTCHA }];
const KEPT_ON_PHONE_LINE =
  'NOT CHECKED BY BOT PROTECTION: kept on a phone with no signal and sent later by the site, where bot protection cannot run. No acknowledgement was sent to the address given.';

type ReceivedMail = { subject: string; raw: string };

async function mailsAbout(words: string): Promise<ReceivedMail[]> {
  const mails = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[];
  return mails.filter((mail) => mail.subject.includes(words) || mail.raw.includes(words));
}

/** The production build's enquiries with this subject, and the notification jobs of each. */
async function storedEnquiries(subject: string) {
  const db = openTestDatabase(productionConfigEnv.DATABASE_URL!);
  try {
    const rows = (
      await db.execute({
        sql: 'SELECT id, reference, disposition, verification, verification_detail FROM enquiries WHERE subject = ? ORDER BY id',
        args: [subject],
      })
    ).rows;
    return await Promise.all(
      rows.map(async (row) => ({
        reference: String(row.reference),
        disposition: String(row.disposition),
        verification: String(row.verification),
        detail: String(row.verification_detail),
        jobs: (
          await db.execute({ sql: 'SELECT kind FROM enquiry_notifications WHERE enquiry_id = ? ORDER BY id', args: [Number(row.id)] })
        ).rows.map((job) => String(job.kind)),
      })),
    );
  } finally {
    db.close();
  }
}

const text = (value: string) => JSON.stringify(value);
const h1Is = (words: string) => `return document.querySelector('h1')?.textContent === ${text(words)}`;

/** What the engine offers a page for service workers, as the test report shows it. */
async function workerSupport(session: EngineSession) {
  return session.evaluate<{ api: boolean; secure: boolean; agent: string }>(
    `return { api: 'serviceWorker' in navigator, secure: window.isSecureContext, agent: navigator.userAgent }`,
  );
}

type Journey = {
  /** The form loaded again with no signal, so from the worker (else the page opened with a signal is used). */
  formFromWorker: boolean;
  /** A 4032x3024 phone photo with the claim. */
  photo: boolean;
};

/** The first visit, with a signal: the worker installs, keeps the form, and takes the page over. */
async function firstVisit(session: EngineSession, site: string) {
  await session.goto(`${site}/contact`);
  const support = await workerSupport(session);
  test.info().annotations.push({
    type: 'service worker',
    description: `${session.name}: navigator.serviceWorker ${support.api ? 'present' : 'absent'}, secure context ${support.secure}, ${support.agent}`,
  });
  expect(support).toMatchObject({ api: true, secure: true });
  await session.waitFor('return !!navigator.serviceWorker.controller', 30_000);
  expect(await session.evaluate<string>('return navigator.serviceWorker.controller.scriptURL')).toBe(`${site}/service-worker.js`);
}

/** With no signal: the claim (with the photo in `photoFile`, if any) sent and kept on the phone; resolves with its subject. */
async function keepWithNoSignal(
  session: EngineSession,
  site: string,
  { formFromWorker, photoFile }: { formFromWorker: boolean; photoFile?: string },
) {
  if (formFromWorker) {
    await session.goto(`${site}/contact`);
    await session.waitFor(h1Is('Contact Us'));
  }
  const subject = `${session.name} no signal ${Date.now()}`;
  await session.type('#contact-name', 'Morag Visitor');
  await session.type('#contact-email', `morag.${Date.now().toString(36)}@example.com`);
  await session.type('#contact-subject', subject);
  await session.type('#contact-message', 'Slates came off in the storm and the phone has no signal here.');
  await session.click('#claim-toggle');
  await session.evaluate(
    `const select = document.getElementById('claim-damageType'); select.focus(); select.value = 'storm-weather'; select.dispatchEvent(new Event('change', { bubbles: true }));`,
  );
  if (photoFile) {
    await session.upload('#contact-photos', photoFile);
    await session.waitFor(`return document.querySelector('form').innerText.includes(${text(path.basename(photoFile))})`, 20_000);
  }
  await session.click('form button[type="submit"]');
  await session.waitFor(`return !!document.querySelector('[data-testid="kept-on-phone"]')`, 30_000);
  expect(await session.evaluate<string>(`return document.querySelector('[data-testid="kept-on-phone"] p').textContent`)).toBe(
    keptClaimText.kept,
  );
  expect(await storedEnquiries(subject)).toEqual([]);
  if (formFromWorker) {
    // Another page with no signal: not kept, so the worker's offline page.
    await session.goto(`${site}/about`);
    await session.waitFor(h1Is(offlinePage.heading));
  }
  // The visitor closes the page.
  await session.goto('about:blank', { scriptsBlocked: true });
  expect(await storedEnquiries(subject)).toEqual([]);
  return subject;
}

const NOTICE = `document.querySelector('[role="status"] [data-testid="kept-claim-notice"] p')`;

/** With the signal back, a page of the site opened: the claim sent once, unverified, and said so. */
async function expectSentOnce(session: EngineSession, site: string, { subject, photo }: { subject: string; photo: boolean }) {
  await session.goto(`${site}/about`);
  await session.waitFor(h1Is('About Us'));
  await session.waitFor(`return !!${NOTICE}`, 30_000);
  const said = await session.evaluate<string>(`return ${NOTICE}.textContent`);
  const reference = REFERENCE.exec(said)?.[0] ?? '';
  expect(said).toBe(keptClaimNoticeText.sent(reference));

  await expect.poll(async () => (await mailsAbout(subject)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  // A second send or an acknowledgement, were there one, is here once the outbox has finished every job
  // of the enquiries with this subject (the notice says the worker has settled the claim already).
  await outboxFinished(productionConfigEnv.DATABASE_URL!, { subject });
  const mails = await mailsAbout(subject);
  expect(mails.map((mail) => mail.subject)).toEqual([`Enquiry ${reference}: Storm or weather damage: ${subject}`]);
  expect(await mailsAbout(`We have your enquiry ${reference}`)).toEqual([]);
  const mail = parseMail(mails[0]!.raw);
  expect(mail.text.split('\n')).toContain(KEPT_ON_PHONE_LINE);
  expect(mail.text).toContain(`Reference: ${reference}`);
  if (photo) {
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
    const attached = await sharp(mail.attachments[0]!.content).metadata();
    expect([attached.width, attached.height, attached.exif]).toEqual([2048, 1536, undefined]);
  } else {
    expect(mail.attachments).toEqual([]);
  }
  expect(await storedEnquiries(subject)).toEqual([
    {
      reference,
      disposition: 'accepted',
      verification: 'unverified',
      detail: 'kept on the phone with no signal and sent later by its service worker: bot protection could not run',
      // One notification to the company, no acknowledgement to the visitor.
      jobs: ['notification'],
    },
  ]);

  // Opened again: the claim is not sent a second time, and the notice is not shown again. The worker's
  // round after this visit is over, and it tells its outcomes before that, when it keeps nothing more.
  await session.goto(`${site}/about`);
  await session.evaluate(ASK_WORKER_FOR_A_ROUND);
  await session.waitFor(WORKER_KEEPS_NOTHING, 15_000);
  expect(await session.evaluate<boolean>(`return !!${NOTICE}`)).toBe(false);
  expect((await mailsAbout(subject)).length).toBe(1);
  expect((await storedEnquiries(subject)).length).toBe(1);
}

async function keptAndSentLater(engine: EngineName, { formFromWorker, photo }: Journey) {
  const folder = mkdtempSync(path.join(tmpdir(), 'homecare-offline-photo-'));
  const photoFile = path.join(folder, 'IMG_6001.jpg');
  if (photo) writeFileSync(photoFile, withPhoneExif(await phonePhoto(61)));
  // Its own loopback address to the site: the acknowledgement caps and rate limits are this test's.
  const relay = await startEngineRelay(productionSiteUrl, { sourceAddress: ownLoopbackAddress() });
  const session = await openEngine(engine, phone, recaptcha);
  try {
    await firstVisit(session, relay.url);
    // No signal: connections to the site are refused, the worker's own included.
    await relay.cut();
    expect(
      await fetch(`${relay.url}/contact`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
    const subject = await keepWithNoSignal(session, relay.url, { formFromWorker, photoFile: photo ? photoFile : undefined });
    await relay.restore();
    await expectSentOnce(session, relay.url, { subject, photo });
  } finally {
    await session.close();
    await relay.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

test('firefox, phone: with no signal the worker serves the claim form, keeps the claim with its photo, and sends it once when a page is opened with the signal back', async () => {
  // With navigation preload on, a navigation whose preload cannot connect ends on Firefox's own "Unable
  // to connect" page and the worker's kept pages are never shown: the worker uses no preload.
  test.setTimeout(180_000);
  await keptAndSentLater('firefox', { formFromWorker: true, photo: true });
});

test('webkit, phone: with no signal the worker serves the claim form, keeps the claim with its photo, and sends it once when a page is opened with the signal back', async () => {
  // WebKitWebDriver's MiniBrowser always runs on an ephemeral (private) data store, where IndexedDB
  // refuses a Blob: the worker keeps photos as bytes, so a private window keeps them too.
  test.setTimeout(180_000);
  await keptAndSentLater('webkit', { formFromWorker: true, photo: true });
});

test('firefox, phone: the form opened with a signal and sent after losing it: the claim with its photo kept, and sent once when a page is opened with the signal back', async () => {
  test.setTimeout(180_000);
  await keptAndSentLater('firefox', { formFromWorker: false, photo: true });
});
