import { readFile } from 'node:fs/promises';
import { staffPage } from '@/content/staff-page';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { pdfText } from '@/tests/support/pdf-text';
import { linkPath, sentEnquiry } from './support/claims';
import { axe } from './support/axe';
import { expect, test, type APIRequestContext, type Download, type Page } from './support/test';
import { signedCrmEvent } from '../support/crm-event';
import { printed, runCommand } from '../support/tool-host/client';
import { testBuildEnv, testSiteUrl } from './test-env';

// A claim's drying documents against the default test build: two signed CRM visits (a 700 W
// dehumidifier on for 168 hours), dried saved on the staff page with a name, then from the status
// page both PDFs downloaded and read back, each an issued document with its own number, downloaded
// again with nothing changed (the same document), and the verification address each prints opened,
// before and after the operator revokes the claim's links.

const HOUR_MS = 60 * 60_000;

const sentDryingEnquiry = (request: APIRequestContext, unique: string) =>
  sentEnquiry(request, unique, {
    name: 'Morag Documents',
    phone: '07700 900456',
    subject: `Burst pipe ${unique}`,
    message: 'Water through the kitchen ceiling.',
    postcode: 'G67 1AA',
  });

// `npm run claims` as the operator runs it, in a process of its own: the one test that covers the command's
// entry point end to end (claim-links.spec.ts runs it in process).
const claimsCommand = (...args: string[]) => printed(runCommand('claims', args, testBuildEnv));

/** The path a document prints for checking it: /verify/<number>.<signature>, read with its line breaks taken out. */
const verifyPathIn = (text: string) => /\/verify\/HC-[A-Z0-9-]+\.[A-Za-z0-9_-]{32}/.exec(text.replace(/\s+/g, ''))?.[0];

/** Dried, saved on the staff page with the name of who confirmed it. */
async function saveDried(page: Page, notification: string, confirmedBy: string) {
  await page.goto(linkPath(notification, '/claim-update/'));
  const staff = page.getByTestId('staff-update');
  await staff.getByLabel(staffPage.labels.stage).selectOption('dried');
  await staff.getByLabel(staffPage.labels.confirmedBy).fill(confirmedBy);
  await staff.getByRole('button', { name: staffPage.submit }).click();
  await expect(staff.getByRole('status')).toHaveText(staffPage.saved('Dried: ready for repairs'));
}

async function downloadStatement(page: Page, rate: string) {
  const documents = page.getByTestId('drying-documents');
  await documents.getByLabel(words.statementRateLabel).fill(rate);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    documents.getByRole('button', { name: words.statementButton }).click(),
  ]);
  return download;
}

const textOf = async (download: Download) => pdfText(new Uint8Array(await readFile((await download.path())!)));
// The customer's e-mail by its local part (`documents-<time>`): the letterhead prints the company's own @example.com.
const personal = ['Morag Documents', 'documents-', '07700 900456', 'Water through the kitchen ceiling'];

test('the electricity statement and the certificate of dryness: downloaded, read back, and checked at their address', async ({
  page,
  request,
}) => {
  const { reference, notification } = await sentDryingEnquiry(request, `documents-${Date.now()}`);
  const on = new Date(Math.floor((Date.now() - 8 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS);
  const off = new Date(on.getTime() + 168 * HOUR_MS);
  const machine = { kind: 'dehumidifier', model: 'Ebac BD150', watts: 700, count: 1, on: on.toISOString(), kwh: null };
  const visit = (at: Date, value: number, machineOff: Date | null) => ({
    reference,
    visitAt: at.toISOString(),
    readings: [{ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value, goal: 12 }],
    equipment: [{ ...machine, off: machineOff?.toISOString() ?? null }],
  });
  const post = (data: Record<string, unknown>) =>
    request.post(`${testSiteUrl}/api/crm/events`, signedCrmEvent('claim.drying_recorded', data));
  expect((await post(visit(on, 28, null))).status()).toBe(200);
  expect((await post(visit(off, 11, off))).status()).toBe(200);

  // Dried, saved on the staff page with the name of who confirmed it.
  await saveDried(page, notification, 'Sam Fitter');

  await page.goto(linkPath(notification, '/track/'));
  await expect(page).toHaveURL(new RegExp(`/claims/${reference}$`));
  const documents = page.getByTestId('drying-documents');

  // The statement with the customer's rate: posted, so the rate is in no address.
  const statementDownload = await downloadStatement(page, '24.5');
  expect(statementDownload.url()).toBe(`${testSiteUrl}/claims/${reference}/electricity.pdf`);
  expect(statementDownload.suggestedFilename()).toBe(`electricity-statement-${reference}-E1.pdf`);
  const statement = await textOf(statementDownload);
  for (const line of [
    `Claim reference: ${reference}`,
    'Property: postcode G67 1AA',
    // The machines' table: machine, rated W, on, off, hours, kWh, source.
    /Ebac BD150 dehumidifier 700 .+ 168\.0 117\.6 rated W × hours/,
    'Total electricity used: 117.6 kWh',
    'At your unit rate of 24.5 p/kWh, the amount to claim: £28.81',
    'Your standing charge is not included.',
    'Example Homecare Ltd, Registered in Scotland',
  ])
    if (typeof line === 'string') expect(statement).toContain(line);
    else expect(statement).toMatch(line);
  for (const text of personal) expect(statement).not.toContain(text);

  const [certificateDownload] = await Promise.all([
    page.waitForEvent('download'),
    documents.getByRole('link', { name: words.certificateLink }).click(),
  ]);
  const certificate = await textOf(certificateDownload);
  expect(certificate).toContain(words.certificate.title);
  expect(certificate).toMatch(/Kitchen wall plaster %WME 28 on .+ 11 on .+ 12/);
  expect(certificate).toContain('Ebac BD150 dehumidifier');
  expect(certificate).toMatch(/Drying confirmed on .+ by Sam Fitter\./);
  for (const text of personal) expect(certificate).not.toContain(text);

  expect(certificateDownload.suggestedFilename()).toBe(`certificate-of-dryness-${reference}-C1.pdf`);

  // Downloaded again with nothing changed: the same document, byte for byte.
  const again = await downloadStatement(page, '24.5');
  expect(again.suggestedFilename()).toBe(`electricity-statement-${reference}-E1.pdf`);
  expect((await readFile((await again.path())!)).equals(await readFile((await statementDownload.path())!))).toBe(true);

  // Each prints its own verification address: the document as issued, kept by no cache and indexed by none.
  const verifyPath = verifyPathIn(statement);
  expect(verifyPath).toMatch(new RegExp(`^/verify/${reference}-E1\\.`));
  const certificatePath = verifyPathIn(certificate);
  expect(certificatePath).toMatch(new RegExp(`^/verify/${reference}-C1\\.`));
  const checkStatement = async () => {
    const answer = await page.goto(verifyPath!);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    expect(answer?.headers()['cache-control']).toContain('no-store');
    const verify = page.getByTestId('verify-drying');
    await expect(verify.getByRole('heading', { name: words.verifyPage.heading(words.statement.title, `${reference}-E1`) })).toBeVisible();
    await expect(verify.getByTestId('document-standing')).toHaveText(words.verifyPage.stands);
    await expect(verify.getByText('Total electricity used: 117.6 kWh')).toBeVisible();
    await expect(verify.getByText('At your unit rate of 24.5 p/kWh, the amount to claim: £28.81')).toBeVisible();
    await expect(verify.getByRole('row', { name: /Ebac BD150 dehumidifier 700 W .* 168\.0 117\.6 rated watts × hours/ })).toBeVisible();
    for (const text of personal) await expect(verify).not.toContainText(text);
  };
  await checkStatement();
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  await page.goto(certificatePath!);
  await expect(page.getByText(/Drying confirmed on .+ by Sam Fitter\./)).toBeVisible();
  await expect(page.getByTestId('document-standing')).toHaveText(words.verifyPage.stands);

  // The operator revokes the claim's links (a leaked status link): the pages close, the documents still verify as issued.
  expect(await claimsCommand('--revoke', reference)).toBe(
    `The links of ${reference} have stopped working (its status link and its staff link).\n`,
  );
  expect((await request.get(`${testSiteUrl}/claims/${reference}/certificate.pdf`)).status()).toBe(404);
  await checkStatement();

  // A forged or unsigned token is a 404; so are the PDFs without the status page's cookie.
  const forged = verifyPath!.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
  const forgedAnswer = await request.get(`${testSiteUrl}${forged}`);
  expect(forgedAnswer.status()).toBe(404);
  expect(await forgedAnswer.text()).toContain(words.verifyPage.notFound);
  expect((await request.get(`${testSiteUrl}/verify/${verifyPath!.split('/')[2]!.split('.')[0]}`)).status()).toBe(404);
  expect((await request.get(`${testSiteUrl}${verifyPath!.replace('-E1.', '-E2.')}`)).status()).toBe(404);
  const noCookie = await request.get(`${testSiteUrl}/claims/${reference}/certificate.pdf`);
  expect(noCookie.status()).toBe(404);
  expect(noCookie.headers()['cache-control']).toBe('no-store');
});

test('from outside: 40 statements with different rates in a row make 10 documents, then 429 with the words, never a 500', async ({
  request,
}) => {
  const { reference, notification } = await sentDryingEnquiry(request, `documents-budget-${Date.now()}`);
  const on = new Date(Date.now() - 30 * HOUR_MS).toISOString();
  const running = {
    reference,
    visitAt: on,
    readings: [{ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: 28, goal: 12 }],
    equipment: [{ kind: 'dehumidifier', model: 'Ebac BD150', watts: 700, count: 1, on, off: null, kwh: null }],
  };
  expect((await request.post(`${testSiteUrl}/api/crm/events`, signedCrmEvent('claim.drying_recorded', running))).status()).toBe(200);
  // The status link traded for the page's cookie, which this request context keeps.
  expect((await request.get(`${testSiteUrl}${linkPath(notification, '/track/')}`)).status()).toBe(200);
  const statement = (rate: number) =>
    request.post(`${testSiteUrl}/claims/${reference}/electricity.pdf`, { multipart: { rate: String(rate) } });
  const answers = [];
  for (let rate = 1; rate <= 40; rate += 1) {
    const answer = await statement(rate);
    answers.push({
      status: answer.status(),
      name: answer.headers()['content-disposition'] ?? '',
      text: answer.status() === 429 ? await answer.text() : '',
    });
  }
  // The statements' own budget: 10 new ones a claim a day (the certificate has another 10).
  expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(10).fill(200), ...Array<number>(30).fill(429)]);
  expect(answers[9]!.name).toContain(`${reference}-E10.pdf`);
  for (const refused of answers.slice(10)) expect(refused.text).toBe(words.tooMany);
  expect(words.tooMany).toBe('Too many documents were made for this claim today; the last one is still valid');
  // The last one issued is still there, and the same request again is not a new document.
  const again = await statement(10);
  expect(again.status()).toBe(200);
  expect(again.headers()['content-disposition']).toContain(`${reference}-E10.pdf`);
  // A plain GET would be a new document (none was issued without a rate): refused the same way.
  const plain = await request.get(`${testSiteUrl}/claims/${reference}/electricity.pdf`);
  expect(plain.status()).toBe(429);
  expect(await plain.text()).toBe(words.tooMany);
});

test('names printed as typed, and a certificate withdrawn when a wall is wet again after dried', async ({ page, request }) => {
  const { reference, notification } = await sentDryingEnquiry(request, `documents-names-${Date.now()}`);
  const on = new Date(Math.floor((Date.now() - 6 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS);
  const off = new Date(on.getTime() + 72 * HOUR_MS);
  const rooms = [
    { location: 'Seòmar-cadail', material: 'plaster', goal: 12 },
    { location: 'Łazienka', material: 'plaster', goal: 12 },
    { location: 'Bathroom 🛁', material: 'timber', goal: 16 },
  ];
  const machine = { kind: 'dehumidifier', model: 'Ebac “café” édition', watts: 650, count: 1, on: on.toISOString(), kwh: null };
  /** A visit's readings of `only` at `value`, and the machine running (`off` null), switched off, or not mentioned. */
  const visit = (at: Date, value: number, off: Date | null | 'not mentioned', only = rooms) => ({
    reference,
    visitAt: at.toISOString(),
    readings: only.map((room) => ({ ...room, scale: 'wme', value })),
    equipment: off === 'not mentioned' ? [] : [{ ...machine, off: off?.toISOString() ?? null }],
  });
  const post = (data: Record<string, unknown>) =>
    request.post(`${testSiteUrl}/api/crm/events`, signedCrmEvent('claim.drying_recorded', data));
  expect((await post(visit(on, 30, null))).status()).toBe(200);
  expect((await post(visit(off, 10, off))).status()).toBe(200);

  await saveDried(page, notification, 'Siân Wójcik');

  await page.goto(linkPath(notification, '/track/'));
  const statement = await textOf(await downloadStatement(page, ''));
  const [certificateDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('drying-documents').getByRole('link', { name: words.certificateLink }).click(),
  ]);
  const certificate = await textOf(certificateDownload);
  expect(statement).toContain('Ebac “café” édition');
  for (const name of ['Seòmar-cadail', 'Łazienka', 'Bathroom', 'Siân Wójcik']) expect(certificate).toContain(name);
  for (const text of [statement, certificate]) {
    expect(text).not.toContain('🛁');
    expect(text).not.toMatch(/\?azienka|S\?/);
  }

  // A wall wet again after dried: the claim goes back to drying, the certificate is withdrawn where it is checked.
  const wet = new Date();
  expect((await post(visit(wet, 19, 'not mentioned', [rooms[1]!]))).status()).toBe(200);
  await page.goto(linkPath(notification, '/track/'));
  await expect(page.getByTestId('drying-documents').getByRole('link', { name: words.certificateLink })).toHaveCount(0);
  await page.goto(verifyPathIn(certificate)!);
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' }).format(wet);
  await expect(page.getByTestId('document-standing')).toHaveText(words.verifyPage.withdrawn(day));
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
});
