import { randomBytes } from 'node:crypto';
import { trackPage } from '@/content/claims';
import { instructionProofText } from '@/content/instruction-proof';
import { instructionFields } from '../support/instruction';
import { axe } from './support/axe';
import { KEPT_CLAIM_HEADER, KEPT_CLAIM_HEADER_VALUE } from '@/lib/offline/protocol';
import { companyNotification, linkPath, sentEnquiry } from './support/claims';
import { insurersCommand, openPortfolio, rowReferences } from './support/portfolio';
import { expect, hydrated, test, type Page } from './support/test';
import { testSiteUrl } from './test-env';

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

test('an anonymous instruction sent as a phone’s kept claim, or as the form posted without JavaScript, is not the insurer’s either', async ({
  browser,
  request,
}) => {
  // As the phone's worker sends a kept claim: its header, no bot check.
  const kept = await request.post('/api/contact', {
    headers: { Origin: testSiteUrl, [KEPT_CLAIM_HEADER]: KEPT_CLAIM_HEADER_VALUE },
    data: { name: 'Morag Claim', phone: '', ...instructionFields(`claims@${domain}`, 'loss-adjuster', 'PM-KEPT'), insurer: name },
  });
  expect(kept.status()).toBe(201);
  const keptReference = ((await kept.json()) as { reference: string }).reference;

  // The form as a browser without script posts it.
  const noScript = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await noScript.goto('/contact?role=loss-adjuster');
  const form = noScript.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel(/^Name/).fill('Alex Adjuster');
  await form.getByLabel(/^Email/).fill(`claims@${domain}`);
  await form.getByLabel(/^Subject/).fill(`Instruction PM-FORM-${run}`);
  await form.getByLabel(/^Message/).fill('Escape of water from the bathroom above. Please survey.');
  await form.getByLabel('This is about an insurance claim').check();
  await form.getByLabel('Who is getting in touch', { exact: true }).selectOption('loss-adjuster');
  await form.getByLabel('Type of damage', { exact: true }).selectOption('water-damage');
  await form.getByLabel('Insurer’s name', { exact: true }).fill(name);
  await form.getByLabel('Claim or policy reference', { exact: true }).fill('PM-FORM');
  await form.getByLabel(/^Policyholder’s name/).fill('Ann Policy');
  await form.getByLabel(/^Policyholder’s telephone/).fill('07700 900123');
  await form.getByLabel(/^Address of the property/).fill('Flat 2, 1 High Street, Kilsyth');
  await form.getByLabel('Postcode of the property', { exact: true }).fill('G65 0AA');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(noScript.getByRole('heading', { level: 1 })).toHaveText('Message sent');
  const formReference = /HC-[A-Z0-9-]+/.exec((await noScript.getByRole('main').textContent()) ?? '')?.[0];
  expect(formReference).toBeTruthy();
  await noScript.context().close();

  const insurer = await browser.newPage();
  const view = await portfolioReferences(insurer);
  for (const reference of [keptReference, formReference!]) {
    expect(view.rows).not.toContain(reference);
    expect(view.csv).not.toContain(reference);
    await insurer.goto(linkPath(await companyNotification(reference), '/claim-update/'));
    await expect(insurer.getByTestId('instruction-standing')).toHaveText(instructionProofText.unconfirmed(domain, name));
  }
  await insurer.close();
});

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
