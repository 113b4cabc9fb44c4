import { randomBytes } from 'node:crypto';
import { trackPage } from '@/content/claims';
import { instructionProofText } from '@/content/instruction-proof';
import { instructionFields } from '../support/instruction';
import { axe } from './support/axe';
import { linkPath, sentEnquiry } from './support/claims';
import { insurersCommand, openPortfolio, rowReferences } from './support/portfolio';
import { expect, hydrated, test, type Page } from './support/test';

// From outside, as a stranger would: an instruction sent with an address at a registered insurer's
// domain typed into the form is not that insurer's until its sender is proven. It stays out of the
// insurer's view and CSV, the staff page says so, and the sender confirms it from the page the
// acknowledgement's link opens (the company's notification carries the same link), with the page's
// script or without it.

const run = randomBytes(4).toString('hex');
const domain = `proof-${run}.example`;
const name = `Proof Mutual ${run}`;

test.beforeAll(async () => {
  await insurersCommand('--add', name, '--domain', domain);
});

/** A new link for the organisation's desk, as `--link` prints it: each opens once. */
const newPortfolioToken = async () =>
  linkPath(await insurersCommand('--link', domain, '--address', `desk@${domain}`), '/portfolio/open/')
    .split('/')
    .pop()!;

async function portfolioReferences(page: Page): Promise<{ rows: string[]; csv: string }> {
  await openPortfolio(page, await newPortfolioToken());
  const csv = await page.request.get('/portfolio/claims.csv');
  expect(csv.status()).toBe(200);
  return { rows: await rowReferences(page), csv: await csv.text() };
}

for (const script of ['with', 'without'] as const) {
  test(`an anonymous instruction at the insurer’s domain is in its view only once its sender confirms it, ${script} JavaScript`, async ({
    browser,
    request,
  }) => {
    const unique = `proof-${run}-${script}`;
    const sent = await sentEnquiry(request, unique, { ...instructionFields(`claims@${domain}`, 'insurer', `PM-${script}`), insurer: name });

    const insurer = await browser.newPage();
    const before = await portfolioReferences(insurer);
    expect(before.rows).not.toContain(sent.reference);
    expect(before.csv).not.toContain(sent.reference);

    const staff = await browser.newPage();
    await staff.goto(linkPath(sent.notification, '/claim-update/'));
    await expect(staff.getByTestId('instruction-standing')).toHaveText(instructionProofText.unconfirmed(domain, name));
    await staff.close();

    const sender = await (await browser.newContext({ javaScriptEnabled: script === 'with' })).newPage();
    await sender.goto(linkPath(sent.notification, '/track/'));
    await expect(sender).toHaveURL(new RegExp(`/claims/${sent.reference}$`));
    if (script === 'with') await hydrated(sender);
    const confirm = sender.getByRole('region', { name: instructionProofText.heading });
    await expect(confirm).toContainText(instructionProofText.body(name));
    if (script === 'with') expect((await axe(sender).analyze()).violations).toEqual([]);
    await confirm.getByRole('button', { name: instructionProofText.button(name) }).click();
    await expect(confirm.getByRole('status')).toHaveText(instructionProofText.confirmed(name));
    await expect(confirm.getByRole('button')).toHaveCount(0);
    await sender.context().close();

    const after = await portfolioReferences(insurer);
    expect(after.rows).toContain(sent.reference);
    expect(after.csv).toContain(sent.reference);
    await insurer.close();
  });
}

test('the company confirms an instruction from its staff page, and the insurer sees it', async ({ browser, page, request }) => {
  const sent = await sentEnquiry(request, `proof-${run}-company`, {
    ...instructionFields(`claims@${domain}`, 'insurer', 'PM-CO'),
    insurer: name,
  });
  await page.goto(linkPath(sent.notification, '/claim-update/'));
  await hydrated(page);
  await page.getByRole('button', { name: instructionProofText.companyButton(name) }).click();
  await expect(page.getByTestId('instruction-confirmed')).toHaveText(instructionProofText.proven(name, 'company'));
  await page.reload();
  await expect(page.getByTestId('instruction-standing')).toHaveText(instructionProofText.proven(name, 'company'));
  await expect(page.getByRole('button', { name: instructionProofText.companyButton(name) })).toHaveCount(0);
  const insurer = await browser.newPage();
  expect((await portfolioReferences(insurer)).rows).toContain(sent.reference);
  await insurer.close();
});

test('the look-up opens an instruction’s status page, but cannot confirm it', async ({ page, request }) => {
  const sent = await sentEnquiry(request, `proof-${run}-look-up`, {
    ...instructionFields(`claims@${domain}`, 'insurer', 'PM-LOOK'),
    insurer: name,
  });
  await page.goto('/track');
  await page.getByLabel(trackPage.labels.reference).fill(sent.reference);
  await page.getByLabel(trackPage.labels.email).fill(`claims@${domain}`);
  await page.getByRole('button', { name: trackPage.submit }).click();
  // The look-up opens the claim's status page by the same cookie its link would be traded for.
  await expect.poll(async () => (await page.context().cookies()).map((cookie) => cookie.name)).toContain('claim-status');
  await page.goto(`/claims/${sent.reference}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: instructionProofText.heading })).toHaveCount(0);
  expect((await portfolioReferences(page)).rows).not.toContain(sent.reference);
});
