import { readFileSync } from 'node:fs';
import type { Client } from '@libsql/client';
import { business } from '@/content/business';
import { deadLinkText, statusText } from '@/content/claims';
import { portfolioColumns, portfolioDeadLinkText, portfolioLinkText, portfolioPage } from '@/content/portfolio';
import { printed, runTool } from '../support/tool-host/client';
import { axe } from './support/axe';
import { sentEnquiry } from './support/claims';
import { openTestDatabase } from './support/database';
import { anotherPerson, bringPortfolioLink, openPortfolio, rowReferences } from './support/portfolio';
import { expect, test, type Page } from './support/test';
import { testBuildEnv } from './test-env';

// An insurer's and a loss adjuster's portfolios against the test build: two organisations, each with
// two instructions, and a homeowner's claim. Each person's link opens their own organisation's claims
// and no one else's, however the address is edited; the CSV is the page's rows; a link opens once; signing
// out ends a page, and signing out everywhere ends every browser's.

const database = (): Client => openTestDatabase(testBuildEnv.DATABASE_URL!);
const HYPERLINK = '=HYPERLINK("https://evil.example/","Open")';

type Organisation = { id: number; personId: number; name: string; references: string[] };

async function newOrganisation(db: Client, name: string): Promise<Omit<Organisation, 'references'>> {
  const now = Date.now();
  const created = await db.execute({
    sql: 'INSERT INTO organisations (name, standards, created_ms, updated_ms) VALUES (?, ?, ?, ?) RETURNING id',
    args: [name, '{"contact":{"workingHours":2}}', now, now],
  });
  const id = Number(created.rows[0]!.id);
  const person = await db.execute({
    sql: 'INSERT INTO organisation_people (organisation_id, email, email_key, created_ms) VALUES (?, NULL, NULL, ?) RETURNING id',
    args: [id, now],
  });
  return { id, personId: Number(person.rows[0]!.id), name };
}

/** A new link token for each person, as the operator's `--link` makes one (tests/support/tool-host/portfolio-link.ts, in the tool host). */
const linkTokens = async (...people: number[]) =>
  (await printed(runTool('portfolio-link', people.map(String), testBuildEnv))).trim().split('\n');

const instruction = (claimNumber: string, postcode: string) => ({
  claimRole: 'insurer',
  insurer: 'Example Mutual',
  claimReference: claimNumber,
  policyholderName: 'Ann Policy',
  policyholderPhone: '07700 900123',
  propertyAddress: '1 High Street, Kilsyth',
  postcode,
  damageType: 'water-damage',
});

let first: Organisation;
let second: Organisation;
let homeowner: string;

test.beforeAll(async ({ request }) => {
  const unique = `${Date.now()}`;
  const db = database();
  const made = [await newOrganisation(db, `Example Mutual ${unique}`), await newOrganisation(db, `North Adjusters ${unique}`)];
  const references: string[][] = [[], []];
  for (const [index, claimNumber] of ['EM-1', 'EM-2', 'NA-1', 'NA-2'].entries()) {
    const owner = index < 2 ? 0 : 1;
    const sent = await sentEnquiry(request, `portfolio-${unique}-${index}`, instruction(claimNumber, owner === 0 ? 'G65 0AA' : 'G1 1AA'));
    await db.execute({ sql: 'UPDATE enquiries SET organisation_id = ? WHERE reference = ?', args: [made[owner]!.id, sent.reference] });
    // Newest first: the second sent is the first row.
    references[owner]!.unshift(sent.reference);
  }
  await db.execute({ sql: 'UPDATE enquiries SET claim_reference = ? WHERE reference = ?', args: [HYPERLINK, references[0]![0]!] });
  homeowner = (await sentEnquiry(request, `portfolio-${unique}-home`)).reference;
  first = { ...made[0]!, references: references[0]! };
  second = { ...made[1]!, references: references[1]! };
  db.close();
});

/** A link opens once: each opening is a new link of the organisation's person. */
const newLink = async (organisation: Organisation) => (await linkTokens(organisation.personId))[0]!;
const openLink = async (page: Page, organisation: Organisation) => {
  const token = await newLink(organisation);
  await openPortfolio(page, token);
  return token;
};

test('each link opens its own organisation’s claims only, newest first, with no token left anywhere', async ({ page, context }) => {
  const token = await openLink(page, first);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Claims from Example Mutual /);
  expect(await rowReferences(page)).toEqual(first.references);
  await expect(page.getByTestId('portfolio-table').getByRole('columnheader')).toHaveText([
    ...Object.values(portfolioColumns),
    // Its own standard; the company's are placeholders in this build, so held to none of them.
    'Standard: first contact within 2 working hours',
  ]);
  await expect(
    page.getByTestId('portfolio-summary').getByRole('row', { name: new RegExp(portfolioPage.summary.instructed) }),
  ).toContainText('2');
  // Nothing the instructing office did not send: no policyholder's name or phone.
  await expect(page.getByTestId('portfolio')).not.toContainText(/Ann Policy|07700/);
  expect(await page.content()).not.toContain(token);
  const cookies = await context.cookies();
  const [cookie] = cookies.filter((each) => each.name === 'portfolio');
  expect(cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Strict' });
  expect(cookie!.value).not.toContain(token);
  // The used link's token no longer waits anywhere.
  expect(cookies.filter((each) => each.value.includes(token))).toEqual([]);

  await openLink(page, second);
  expect(await rowReferences(page)).toEqual(second.references);
});

test('another organisation’s claim, a widened query and the CSV of another give nothing of it', async ({ page }) => {
  await openLink(page, first);
  for (const widened of [
    `/portfolio?organisation=${second.id}&state=all`,
    `/portfolio?organisation_id=${second.id}&org=${second.id}&stage=&state=all&state=open`,
    `/portfolio?stage=received%27%20OR%201=1--&state=all`,
  ]) {
    await page.goto(widened);
    expect(await rowReferences(page), widened).toEqual(first.references);
  }
  // Its own claim's status page opens with the portfolio's cookie; another's and the homeowner's do not.
  await page.getByRole('link', { name: first.references[0] }).click();
  await expect(page.getByRole('heading', { level: 1, name: statusText.heading(first.references[0]!) })).toBeVisible();
  for (const reference of [second.references[0]!, homeowner]) {
    const answer = await page.goto(`/claims/${reference}`);
    expect(answer?.status(), reference).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(deadLinkText.title);
    await expect(page.getByTestId('claim-status')).toHaveCount(0);
  }
  const csv = await page.request.get(`/portfolio/claims.csv?organisation=${second.id}&state=all`);
  const text = (await csv.text()).replace(/^\uFEFF/, '');
  for (const reference of [...second.references, homeowner]) expect(text).not.toContain(reference);
  expect(text).toContain(first.references[0]!);
});

test('the CSV: the page’s rows in its order, a byte-order mark, every cell quoted, and a formula written as text', async ({ page }) => {
  await openLink(page, first);
  await page.getByLabel(portfolioPage.filters.state).selectOption('open');
  await page.getByRole('button', { name: portfolioPage.filters.submit }).click();
  await expect(page).toHaveURL(/\/portfolio\?stage=&state=open$/);
  const link = page.getByRole('link', { name: portfolioPage.download });
  await expect(link).toHaveAttribute('href', '/portfolio/claims.csv?state=open');
  const downloading = page.waitForEvent('download');
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^claims-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
  expect(
    lines[0]!.startsWith(
      Object.values(portfolioColumns)
        .map((heading) => `"${heading}"`)
        .join(','),
    ),
  ).toBe(true);
  expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(first.references.map((reference) => `"${reference}"`));
  expect(lines[1]).toContain(`,"'=HYPERLINK(""https://evil.example/"",""Open"")","G65 0AA",`);
  expect(lines[2]).toContain(',"EM-1","G65 0AA",');
  // Times in ISO 8601 with their offset.
  expect(lines[1]).toMatch(/,"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}",/);
  const headers = (await page.request.get('/portfolio/claims.csv?state=open')).headers();
  expect(headers).toMatchObject({ 'cache-control': 'no-store', 'content-type': 'text/csv; charset=utf-8' });
  expect(headers['content-disposition']).toMatch(/^attachment; filename="claims-/);
});

test('without a cookie, the page is the dead link and nothing else, and not indexed', async ({ page }) => {
  const answer = await page.goto('/portfolio');
  expect(answer?.status()).toBe(403);
  expect(answer?.headers()).toMatchObject({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' });
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expect(page.getByTestId('portfolio-link-refused')).toHaveText(
    `${portfolioDeadLinkText.title}Call us on ${business.phone.display} for a new one.`,
  );
  // A forged link moves on to the same answer.
  const token = await newLink(first);
  await page.goto(`/portfolio/open/${token.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))}`);
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(portfolioDeadLinkText.title);
});

for (const width of [390, 1280]) {
  test(`axe finds nothing on the page at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openLink(page, first);
    await expect(page.getByTestId('portfolio-table')).toBeVisible();
    expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  });
}

test('the filters, the download and the table by keyboard alone', async ({ page }) => {
  await openLink(page, second);
  const stage = page.getByLabel(portfolioPage.filters.stage);
  await stage.focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(portfolioPage.filters.state)).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(stage).toBeFocused();
  // A closed select's arrow keys choose its options: the first after "Any stage" is Received.
  await page.keyboard.press('ArrowDown');
  await expect(stage).toHaveValue('received');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: portfolioPage.filters.submit })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/portfolio\?stage=received&state=all$/);
  expect(await rowReferences(page)).toEqual(second.references);
  await expect(page.getByLabel(portfolioPage.filters.stage)).toHaveValue('received');

  await page.getByRole('button', { name: portfolioPage.filters.submit }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: portfolioPage.download })).toBeFocused();
  await page.keyboard.press('Tab');
  const region = page.getByRole('region', { name: portfolioPage.table.scrollLabel });
  await expect(region).toBeFocused();
  const scrolled = await region.evaluate((element) => element.scrollWidth > element.clientWidth);
  if (scrolled) {
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  }
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: second.references[0] })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: statusText.heading(second.references[0]!) })).toBeVisible();
});

test('a link opens once: opened again, in this browser or another, it says so and sends a new one to the same address', async ({
  page,
  browser,
}) => {
  const token = await openLink(page, first);
  expect(await rowReferences(page)).toEqual(first.references);
  const other = await anotherPerson(browser);
  try {
    await bringPortfolioLink(other, token);
    const used = other.getByTestId('portfolio-link-used');
    await expect(used.getByRole('heading', { level: 1 })).toHaveText('This link has been used or is too old');
    await expect(other.getByTestId('portfolio')).toHaveCount(0);
    // An office link (no address): nothing to send it to, so the phone number.
    await expect(used).toContainText(portfolioLinkText.used.office);
    expect((await other.request.get('/portfolio/claims.csv')).status()).toBe(403);
    expect((await axe(other).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  } finally {
    await other.context().close();
  }
  // The first browser is still signed in.
  await page.reload();
  expect(await rowReferences(page)).toEqual(first.references);
});

test('the link’s page: nothing used until "Open my claims" is pressed, by keyboard alone, and axe finds nothing', async ({ page }) => {
  await bringPortfolioLink(page, await newLink(first));
  const opening = page.getByTestId('portfolio-open-link');
  await expect(opening.getByRole('heading', { level: 1 })).toHaveText(portfolioLinkText.open.heading);
  // It names whose claims it opens, so no one presses a link someone else sent them unawares.
  await expect(opening).toContainText(portfolioLinkText.open.body(first.name));
  await expect(page.getByTestId('portfolio')).toHaveCount(0);
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  // Loaded again (a mail scanner, a preview, a second look): still unused.
  await page.reload();
  const button = opening.getByRole('button', { name: portfolioLinkText.open.button });
  await expect(button).toBeVisible();
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('portfolio')).toBeVisible();
  expect(await rowReferences(page)).toEqual(first.references);
});

test('"Sign out" ends this browser’s page; "Sign out everywhere" ends a second browser’s too', async ({ page, browser }) => {
  await openLink(page, second);
  const other = await anotherPerson(browser);
  try {
    await openLink(other, second);
    await page.getByRole('button', { name: portfolioPage.signOut, exact: true }).click();
    await expect(page).toHaveURL(/\/insurers$/);
    let answer = await page.goto('/portfolio');
    expect(answer?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(portfolioDeadLinkText.title);
    // The other browser's page is its own session: still open.
    await other.reload();
    expect(await rowReferences(other)).toEqual(second.references);

    await openLink(page, second);
    await page.getByRole('button', { name: portfolioPage.signOutEverywhere }).click();
    await expect(page).toHaveURL(/\/insurers$/);
    for (const each of [page, other]) {
      answer = await each.goto('/portfolio');
      expect(answer?.status()).toBe(403);
      await expect(each.getByRole('heading', { level: 1 })).toHaveText(portfolioDeadLinkText.title);
      await expect(each.getByTestId('portfolio-link-refused').getByRole('link', { name: business.phone.display })).toHaveAttribute(
        'href',
        `tel:${business.phone.e164}`,
      );
      expect((await each.request.get('/portfolio/claims.csv')).status()).toBe(403);
      expect((await each.goto(`/claims/${second.references[0]}`))?.status()).toBe(404);
    }
  } finally {
    await other.context().close();
  }
});
