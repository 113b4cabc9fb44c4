import { business } from '@/content/business';
import { deadLinkText } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { parseMail } from '../support/mail-message';
import { outboxMessages } from '../support/outbox';
import { printed, runTool } from '../support/tool-host/client';
import { linkPath, sentEnquiry } from './support/claims';
import { expect, hydrated, test, type APIRequestContext, type APIResponse, type Page } from './support/test';
import { testBuildEnv, testOutboxDir, testSiteUrl } from './test-env';
import { openTestDatabase } from './support/database';

// A claim's signed links as the company and the customer use them, against the default test build:
// opened from a mail client (another site), the token is traded for a cookie and gone from the
// address; a Save sent twice is told once; an expired, revoked or rotated link says only how to get a new one.

type Sent = { reference: string; staff: string; status: string };

async function sentClaim(request: APIRequestContext, unique: string): Promise<Sent> {
  const fields = { name: 'Morag Linkson', subject: `Leak ${unique}`, message: 'Water under the sink.' };
  const { reference, notification } = await sentEnquiry(request, unique, fields);
  return { reference, staff: linkPath(notification, '/claim-update/'), status: linkPath(notification, '/track/') };
}

const MAIL_CLIENT = 'https://mail.example.test/inbox';

/** Opens `path` the way a person does from a mail client: a click on a page of another site. */
async function openFromMail(page: Page, path: string) {
  await page.route(MAIL_CLIENT, (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>Inbox</title><a href="${testSiteUrl}${path}">Open</a>` }),
  );
  await page.mainFrame().goto(MAIL_CLIENT);
  const exchanged = page.waitForResponse((response) => response.url().endsWith(path));
  await page.getByRole('link', { name: 'Open' }).click();
  return exchanged;
}

const stageMails = (reference: string) =>
  outboxMessages(testOutboxDir)
    .map((raw) => parseMail(raw))
    .filter((mail) => mail.subject.startsWith(`Your repair ${reference}:`));

const database = () => openTestDatabase(testBuildEnv.DATABASE_URL!);

/** `npm run claims` against the test build's database, run in process by the tool host: what it printed. */
const claimsCommand = (...args: string[]) => printed(runTool('claims', args, testBuildEnv));

/**
 * Waits until the outbox holds no stage e-mail of the claim still to send: each one recorded is then
 * in the outbox folder, and no other can come (every Save has been answered).
 */
async function stageMailsSettled(reference: string) {
  const pending = async () => {
    const db = database();
    try {
      const { rows } = await db.execute({
        sql: `SELECT count(*) AS pending FROM enquiry_notifications JOIN enquiries ON enquiries.id = enquiry_notifications.enquiry_id
              WHERE enquiries.reference = ? AND enquiry_notifications.kind = 'stage' AND enquiry_notifications.status = 'pending'`,
        args: [reference],
      });
      return Number(rows[0]!.pending);
    } finally {
      db.close();
    }
  };
  await expect.poll(pending, { message: `the stage e-mails of ${reference} are sent` }).toBe(0);
}

test('opened from a mail client, the staff link leaves no token in the address; its cookie is HttpOnly, Strict and for that claim only', async ({
  page,
  request,
  context,
}) => {
  const first = await sentClaim(request, `links-a-${Date.now()}`);
  const second = await sentClaim(request, `links-b-${Date.now()}`);
  const token = first.staff.split('/').pop()!;
  const exchanged = await openFromMail(page, first.staff);
  expect((await exchanged).headers()).toMatchObject({ 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
  await expect(page).toHaveURL(`${testSiteUrl}/claims/${first.reference}/update`);
  await expect(page.getByText(staffPage.forClaim(first.reference))).toBeVisible();
  expect(page.url()).not.toContain(token);
  const cookies = await context.cookies(testSiteUrl + `/claims/${first.reference}/update`);
  const cookie = cookies.find((each) => each.name === 'claim-update');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: `/claims/${first.reference}/update` });
  expect(cookie?.value).not.toContain(token.split('.')[1]);
  // The page the token reached is gone from the history: going back leaves the site.
  await page.goBack();
  await expect(page).toHaveURL(MAIL_CLIENT);

  // A second claim open at once keeps its own cookie; the first still opens.
  await openFromMail(page, second.staff);
  await expect(page.getByText(staffPage.forClaim(second.reference))).toBeVisible();
  await page.goto(`/claims/${first.reference}/update`);
  await expect(page.getByText(staffPage.forClaim(first.reference))).toBeVisible();

  // The customer's link does the same.
  await openFromMail(page, first.status);
  await expect(page).toHaveURL(`${testSiteUrl}/claims/${first.reference}`);
  await expect(page.getByTestId('claim-stage')).toHaveText('Received');
});

/** The "already sent" answer's exact words, whatever minute the first send was saved in. */
const alreadySent = (stage: string) =>
  new RegExp(
    `^${staffPage
      .alreadySent('TIME', staffPage.firstStage(stage))
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('TIME', '\\d\\d:\\d\\d')}$`,
  );

test('a Save sent twice (a double press) records one change and sends one e-mail; the second send says it changed nothing', async ({
  page,
  request,
}) => {
  const sent = await sentClaim(request, `links-twice-${Date.now()}`);
  await page.goto(sent.staff);
  // Hydrated, React sends the two presses one after the other, so the second is the one refused. (Two
  // native posts before hydration may reach the server in either order: which one the page shows
  // then depends on the race; the double post without script is the no-JavaScript test's.)
  await hydrated(page);
  const form = page.getByTestId('staff-update');
  await form.getByLabel(staffPage.labels.stage).selectOption('survey-booked');
  await form.evaluate((element: HTMLFormElement) => {
    element.requestSubmit();
    element.requestSubmit();
  });
  await expect(form.getByRole('alert')).toHaveText(alreadySent('Survey booked'));
  await expect.poll(() => stageMails(sent.reference).length).toBe(1);
  await stageMailsSettled(sent.reference);
  expect(stageMails(sent.reference)).toHaveLength(1);
  await page.goto(`/claims/${sent.reference}/update`);
  await expect(page.getByTestId('claim-timeline').getByRole('listitem')).toHaveCount(2);
});

/** The plain page: that the link no longer works, the phone number, nothing of the claim. */
async function expectDeadLink(page: Page, sent: Sent, words: string) {
  await expect(page.getByTestId('claim-link-refused')).toContainText(words);
  await expect(page.getByTestId('claim-link-refused')).toContainText(business.phone.display);
  await expect(page.locator('main')).not.toContainText(sent.reference);
  await expect(page.locator('body')).not.toContainText('Morag');
  await expect(page.getByTestId('staff-update')).toHaveCount(0);
}

for (const javaScript of [true, false]) {
  test.describe(javaScript ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: javaScript });

    test('a Save whose page has lost its cookie (expired or cleared) is refused with the plain page, and records nothing', async ({
      page,
      context,
    }) => {
      const sent = await sentClaim(page.request, `links-nocookie-${javaScript ? 'js' : 'nojs'}-${Date.now()}`);
      await page.goto(sent.staff);
      const form = page.getByTestId('staff-update');
      await form.getByLabel(staffPage.labels.stage).selectOption('contacted');
      await context.clearCookies();
      await form.getByRole('button', { name: staffPage.submit }).click();
      await expect(page.getByText(deadLinkText.update)).toBeVisible();
      await expect(page.getByText(business.phone.display).first()).toBeVisible();
      // Without script the answer is the page itself: the plain one, nothing of the claim.
      if (!javaScript) await expectDeadLink(page, sent, deadLinkText.update);
      await stageMailsSettled(sent.reference);
      expect(stageMails(sent.reference)).toHaveLength(0);
      await page.goto(sent.staff);
      await expect(page.getByTestId('claim-timeline').getByRole('listitem')).toHaveCount(1);
    });

    test('an expired, a revoked and a rotated staff link each say the link no longer works and how to get a new one, and nothing of the claim', async ({
      page,
      request,
    }) => {
      const unique = `links-dead-${javaScript ? 'js' : 'nojs'}-${Date.now()}`;
      const sent = await sentClaim(request, unique);
      // Opened and saved while it works.
      await page.goto(sent.staff);
      await expect(page.getByText(staffPage.forClaim(sent.reference))).toBeVisible();

      // Expired: the claim last moved 31 days ago.
      const db = database();
      try {
        await db.execute({
          sql: 'UPDATE enquiries SET received_ms = received_ms - 31 * 86400000 WHERE subject = ?',
          args: [`Leak ${unique}`],
        });
      } finally {
        db.close();
      }
      // The page already open can no longer save.
      const form = page.getByTestId('staff-update');
      await form.getByLabel(staffPage.labels.stage).selectOption('contacted');
      await form.getByRole('button', { name: staffPage.submit }).click();
      await expect(page.getByText(deadLinkText.update)).toBeVisible();
      await page.goto(sent.staff);
      await expectDeadLink(page, sent, deadLinkText.update);

      // Renewed by the operator, it works again; revoked, it does not, nor does the status link.
      const renewed = linkPath(await claimsCommand('--staff-link', sent.reference), '/claim-update/');
      await page.goto(renewed);
      await expect(page.getByText(staffPage.forClaim(sent.reference))).toBeVisible();
      await claimsCommand('--revoke', sent.reference);
      await page.goto(renewed);
      await expectDeadLink(page, sent, deadLinkText.update);
      await page.goto(sent.status);
      await expectDeadLink(page, sent, deadLinkText.status);

      // Rotated: every link stops (the secret is put back after, for the other tests' enquiries).
      const fresh = linkPath(await claimsCommand('--staff-link', sent.reference), '/claim-update/');
      const secrets = database();
      const [old] = (await secrets.execute("SELECT value FROM site_secrets WHERE name = 'claim-links'")).rows;
      try {
        await claimsCommand('--rotate-links');
        await page.goto(fresh);
        await expectDeadLink(page, sent, deadLinkText.update);
      } finally {
        await secrets.execute({ sql: "UPDATE site_secrets SET value = ? WHERE name = 'claim-links'", args: [old!.value as ArrayBuffer] });
        secrets.close();
      }
      expect(outboxMessages(testOutboxDir).map((raw) => parseMail(raw).subject)).not.toContain(
        `Your repair ${sent.reference}: Contacted (Example Homecare)`,
      );
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a Save sent again (the answer reloaded) records one change and sends one e-mail; the second send says it changed nothing', async ({
    page,
    request,
  }) => {
    const sent = await sentClaim(request, `links-nojs-twice-${Date.now()}`);
    await page.goto(sent.staff);
    const form = page.getByTestId('staff-update');
    await form.getByLabel(staffPage.labels.stage).selectOption('contacted');
    await form.getByRole('button', { name: staffPage.submit }).click();
    await expect(page.getByText(staffPage.saved('Contacted'))).toBeVisible();
    // The browser sends the same form again.
    await page.reload();
    await expect(page.getByTestId('staff-update').getByRole('alert')).toHaveText(alreadySent('Contacted'));
    await expect.poll(() => stageMails(sent.reference).length).toBe(1);
    await stageMailsSettled(sent.reference);
    expect(stageMails(sent.reference)).toHaveLength(1);
  });

  test('a Save pressed twice (two native posts of the same form and form token) records one change and sends one e-mail', async ({
    page,
  }) => {
    const sent = await sentClaim(page.request, `links-nojs-double-${Date.now()}`);
    await page.goto(sent.staff);
    const form = page.getByTestId('staff-update');
    await form.getByLabel(staffPage.labels.stage).selectOption('contacted');
    // The second press: the browser's own post sent again, byte for byte, alongside the first.
    let second: Promise<APIResponse> | undefined;
    await page.route(`**/claims/${sent.reference}/update`, async (route) => {
      if (route.request().method() !== 'POST' || second) return route.continue();
      second = page.request.fetch(route.request());
      await route.continue();
    });
    await form.getByRole('button', { name: staffPage.submit }).click();
    await expect(page.getByTestId('staff-update')).toContainText(/Saved: |This form was already sent/);
    expect(second, 'the post sent again').toBeDefined();
    const again = await second!;
    expect(again.status()).toBe(200);
    // One of the two posts saved it, the other says it changed nothing; the browser shows one of them.
    const answers = [await page.getByTestId('staff-update').innerText(), await again.text()];
    expect(answers.filter((answer) => answer.includes(staffPage.saved('Contacted')))).toHaveLength(1);
    expect(
      answers.filter((answer) => alreadySent('Contacted').test(/This form was already sent at \d\d:\d\d[^<\n]*/.exec(answer)?.[0] ?? '')),
    ).toHaveLength(1);
    await expect.poll(() => stageMails(sent.reference).length).toBe(1);
    await stageMailsSettled(sent.reference);
    expect(stageMails(sent.reference)).toHaveLength(1);
    await page.unroute(`**/claims/${sent.reference}/update`);
    await page.goto(`/claims/${sent.reference}/update`);
    await expect(page.getByTestId('claim-timeline').getByRole('listitem')).toHaveCount(2);
  });
});
