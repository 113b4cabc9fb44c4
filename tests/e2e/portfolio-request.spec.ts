import { randomBytes } from 'node:crypto';
import { expect, hydrated, test, type Page } from './support/test';
import { axe } from './support/axe';
import { openTestDatabase } from './support/database';
import { parseMail } from '../support/mail-message';
import { peersControlUrl, productionConfigEnv } from './test-env';

// "Your claims with us" on /insurers against the production-configuration build (SMTP to the peers'
// fake server): an address at a registered domain gets its own link by e-mail, any other the same
// answer and no e-mail; before and without the page's script (a native post to the page) and with it
// (without leaving the page). Nothing typed goes in a URL.

type ReceivedMail = { from: string; to: string[]; subject: string; raw: string };

const ANSWER = 'If that address is registered with us, we have sent it a link. It opens your claims once, within 24 hours.';
const INVALID = 'Enter your e-mail address in the form name@example.com';
const SUBJECT = 'Your claims with Example Homecare: your link';
const LINK = /https:\/\/www\.example\.com\/portfolio\/open\/([A-Za-z0-9_-]{43})\b/;

const run = randomBytes(4).toString('hex');
const registered = `claims-${run}.example`;
const suspended = `suspended-${run}.example`;

test.beforeAll(async () => {
  // The server has migrated its database by the time the tests run (the web server answered).
  const db = openTestDatabase(productionConfigEnv.DATABASE_URL!);
  try {
    const now = Date.now();
    for (const [name, domain, suspendedMs] of [
      [`Request Test Insurer ${run}`, registered, null],
      [`Suspended Test Insurer ${run}`, suspended, now],
    ] as const) {
      const inserted = await db.execute({
        sql: 'INSERT INTO organisations (name, created_ms, updated_ms, suspended_ms) VALUES (?, ?, ?, ?) RETURNING id',
        args: [name, now, now, suspendedMs],
      });
      await db.execute({
        sql: 'INSERT INTO organisation_domains (domain, organisation_id) VALUES (?, ?)',
        args: [domain, Number(inserted.rows[0]!.id)],
      });
    }
  } finally {
    db.close();
  }
});

async function mailsTo(address: string): Promise<ReceivedMail[]> {
  const all = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[];
  return all.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()));
}

async function ask(page: Page, address: string) {
  const section = page.getByRole('region', { name: 'Your claims with us' });
  await section.getByLabel('Your work e-mail address').fill(address);
  await section.getByRole('button', { name: 'Email me a link' }).click();
  return section;
}

/**
 * Asks for a link for an unregistered address, one at a suspended organisation's domain, and then a
 * registered address; the first two get no e-mail, the third its link: its token.
 */
async function askForBoth(page: Page, label: string) {
  const stranger = `someone.${label}.${run}@unregistered-${run}.example`;
  const switchedOff = `desk.${label}.${run}@${suspended}`;
  const adjuster = `adjuster.${label}.${run}@${registered}`;
  let section: Awaited<ReturnType<typeof ask>>;
  for (const nobody of [stranger, switchedOff]) {
    await page.goto('/insurers');
    section = await ask(page, nobody);
    await expect(section.getByRole('status')).toHaveText(ANSWER);
    expect(page.url()).toMatch(/\/insurers$/);
  }
  await page.goto('/insurers');
  section = await ask(page, adjuster);
  await expect(section.getByRole('status')).toHaveText(ANSWER);
  expect(page.url()).toMatch(/\/insurers$/);

  await expect.poll(async () => (await mailsTo(adjuster)).length, { timeout: 15_000 }).toBe(1);
  const [mail] = await mailsTo(adjuster);
  const parsed = parseMail(mail!.raw);
  expect(parsed.subject).toBe(SUBJECT);
  expect(parsed.text).toContain('This link is yours: please do not forward it.');
  const token = LINK.exec(parsed.text)?.[1];
  expect(token).toBeTruthy();
  expect(await page.content()).not.toContain(token!);
  // The worker sends in order: the stranger's and the suspended domain's requests came first and were sent nothing.
  expect(await mailsTo(stranger)).toEqual([]);
  expect(await mailsTo(switchedOff)).toEqual([]);

  return token!;
}

/** The e-mailed link, as its person opens it: once, then used, with a new one a press away. */
async function openOnce(page: Page, token: string) {
  // Brought to the page, "Open my claims" pressed: the claims.
  await page.goto(`/portfolio/open/${token}`);
  await expect(page).toHaveURL(/\/portfolio$/);
  await page.getByRole('button', { name: 'Open my claims' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Claims from Request Test Insurer ${run}`);
  // Signed out, and opened again: used, and a new one is a press away (answered as the request is).
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/insurers$/);
  await page.goto(`/portfolio/open/${token}`);
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has been used or is too old');
  await page.getByRole('button', { name: 'Email me a new link' }).click();
  await expect(page.getByTestId('portfolio-new-link').getByRole('status')).toHaveText(ANSWER);
  expect(page.url()).toMatch(/\/portfolio$/);
}

test.describe('with JavaScript', () => {
  test('the answer comes on the page itself, the link only to a registered domain', async ({ page }) => {
    test.setTimeout(60_000);
    // Documents loaded: the form's posts must load none (history updates of the same document do not count).
    let loads = 0;
    page.on('load', () => (loads += 1));
    const token = await askForBoth(page, 'script');
    // The three loads by goto, and none by any form post.
    expect(loads).toBe(3);
    await openOnce(page, token);
  });

  test('a bad address gets the field error before anything is sent', async ({ page }) => {
    await page.goto('/insurers');
    // The page's script checks the field and moves the focus to it: the check is the hydrated page's.
    await hydrated(page);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    const section = page.getByRole('region', { name: 'Your claims with us' });
    const field = section.getByLabel('Your work e-mail address');
    // The schema's chunk comes with the field's first use; pressed at once, before it can have arrived,
    // the press waits for it and the address is still checked here first.
    await field.fill('not an address');
    await section.getByRole('button', { name: 'Email me a link' }).click();
    await expect(section.getByText(INVALID)).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toBeFocused();
    expect(posts).toEqual([]);
    expect((await axe(page).analyze()).violations).toEqual([]);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts to the page, which answers the same; the link only to a registered domain', async ({ page }) => {
    test.setTimeout(60_000);
    await openOnce(page, await askForBoth(page, 'native'));
  });

  test('a bad address comes back with the field error and what was typed', async ({ page }) => {
    await page.goto('/insurers');
    const section = await ask(page, 'ann-at-nowhere');
    await expect(section.getByText(INVALID)).toBeVisible();
    await expect(section.getByLabel('Your work e-mail address')).toHaveValue('ann-at-nowhere');
    await expect(section.getByLabel('Your work e-mail address')).toHaveAttribute('aria-invalid', 'true');
    expect(page.url()).toMatch(/\/insurers$/);
  });
});

test('axe finds nothing on /insurers with the new section, before and after an answer', async ({ page }) => {
  await page.goto('/insurers');
  await expect(page.getByRole('heading', { name: 'Your claims with us' })).toBeVisible();
  expect((await axe(page).analyze()).violations).toEqual([]);
  await ask(page, `nobody.${run}@unregistered-${run}.example`);
  await expect(page.getByRole('status').filter({ hasText: ANSWER })).toBeVisible();
  expect((await axe(page).analyze()).violations).toEqual([]);
});

test('the page takes only a small form: anything else is refused before Next reads it', async ({ request }) => {
  const notAForm = await request.post('/insurers', { headers: { 'Content-Type': 'text/plain' }, data: 'email=ann@example.com' });
  expect(notAForm.status()).toBe(415);
  const tooLarge = await request.post('/insurers', { multipart: { email: `${'a'.repeat(40 * 1024)}@example.com` } });
  expect(tooLarge.status()).toBe(413);
});
