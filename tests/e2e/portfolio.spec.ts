import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Client } from '@libsql/client';
import { business } from '@/content/business';
import { deadLinkText, statusText } from '@/content/claims';
import { portfolioColumns, portfolioDeadLinkText, portfolioPage } from '@/content/portfolio';
import { printed, runTool } from '../support/tool-host/client';
import { axe } from './support/axe';
import { sentEnquiry } from './support/claims';
import { openTestDatabase } from './support/database';
import { openPortfolio, rowReferences } from './support/portfolio';
import { expect, test, type Page } from './support/test';
import { testBuildEnv } from './test-env';

// An insurer's and a loss adjuster's portfolios against the test build: two organisations, each with
// two instructions, and a homeowner's claim. Each person's link opens their own organisation's claims
// and no one else's, however the address is edited; the CSV is the page's rows; a new key ends an open page.

const database = (): Client => openTestDatabase(testBuildEnv.DATABASE_URL!);
const HYPERLINK = '=HYPERLINK("https://evil.example/","Open")';

type Organisation = { id: number; personId: number; token: string; references: string[] };

async function newOrganisation(db: Client, name: string): Promise<Omit<Organisation, 'token' | 'references'>> {
  const now = Date.now();
  const created = await db.execute({
    sql: 'INSERT INTO organisations (name, standards, link_key, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?) RETURNING id',
    args: [name, '{"contact":{"workingHours":2}}', randomBytes(24).toString('base64url'), now, now],
  });
  const id = Number(created.rows[0]!.id);
  const person = await db.execute({
    sql: 'INSERT INTO organisation_people (organisation_id, email, email_key, link_key, created_ms) VALUES (?, NULL, NULL, ?, ?) RETURNING id',
    args: [id, randomBytes(24).toString('base64url'), now],
  });
  return { id, personId: Number(person.rows[0]!.id) };
}

/** Each person's link token, as the operator's `--link` prints it (tests/support/tool-host/portfolio-link.ts, in the tool host). */
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
  const [firstToken, secondToken] = await linkTokens(made[0]!.personId, made[1]!.personId);
  first = { ...made[0]!, token: firstToken!, references: references[0]! };
  second = { ...made[1]!, token: secondToken!, references: references[1]! };
  db.close();
});

const openLink = (page: Page, organisation: Organisation) => openPortfolio(page, organisation.token);

test('each link opens its own organisation’s claims only, newest first, with no token left anywhere', async ({ page, context }) => {
  await openLink(page, first);
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
  expect(await page.content()).not.toContain(first.token);
  const [cookie] = (await context.cookies()).filter((each) => each.name === 'portfolio');
  expect(cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Strict' });
  expect(cookie!.value).not.toContain(first.token.split('.')[1]);

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
  // A forged link sets no cookie and moves on to the same answer.
  await page.goto(`/portfolio/open/${first.token.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))}`);
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

test('a new organisation key, or a new person key, ends an open page on its next load', async ({ page }) => {
  const db = database();
  try {
    for (const [organisation, table, id] of [
      [first, 'organisations', first.id],
      [second, 'organisation_people', second.personId],
    ] as const) {
      await openLink(page, organisation);
      expect(await rowReferences(page)).toEqual(organisation.references);
      await db.execute({ sql: `UPDATE ${table} SET link_key = ? WHERE id = ?`, args: [randomBytes(24).toString('base64url'), id] });
      const answer = await page.reload();
      expect(answer?.status(), table).toBe(403);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(portfolioDeadLinkText.title);
      await expect(page.getByTestId('portfolio-link-refused').getByRole('paragraph')).toHaveText(
        `Call us on ${business.phone.display} for a new one.`,
      );
      await expect(page.getByTestId('portfolio-link-refused').getByRole('link', { name: business.phone.display })).toHaveAttribute(
        'href',
        `tel:${business.phone.e164}`,
      );
      await expect(page.getByTestId('portfolio')).toHaveCount(0);
      expect((await page.request.get('/portfolio/claims.csv')).status()).toBe(403);
      const status = await page.goto(`/claims/${organisation.references[0]}`);
      expect(status?.status()).toBe(404);
    }
  } finally {
    db.close();
  }
});
