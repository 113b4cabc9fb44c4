import { readFile } from 'node:fs/promises';
import { staffPage } from '@/content/staff-page';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { pdfText } from '@/tests/support/pdf-text';
import { companyNotification, linkPath } from './support/claims';
import { expect, test, type APIRequestContext, type Download } from './support/test';
import { signedCrmEvent } from './support/crm-events';
import { testSiteUrl } from './test-env';

// A claim's drying documents against the default test build: two signed CRM visits (a 700 W
// dehumidifier on for 168 hours), dried saved on the staff page with a name, then from the status
// page both PDFs downloaded and read back, and the verification address they print opened.

const HOUR_MS = 60 * 60_000;

async function sentEnquiry(request: APIRequestContext, unique: string) {
  const answer = await request.post(`${testSiteUrl}/api/contact`, {
    headers: { Origin: testSiteUrl },
    data: {
      name: 'Morag Documents',
      email: `${unique}@example.com`,
      phone: '07700 900456',
      subject: `Burst pipe ${unique}`,
      message: 'Water through the kitchen ceiling.',
      postcode: 'G67 1AA',
    },
  });
  expect(answer.status()).toBe(201);
  const { reference } = (await answer.json()) as { reference: string };
  return { reference, notification: await companyNotification(reference) };
}

const textOf = async (download: Download) => pdfText(new Uint8Array(await readFile((await download.path())!)));
// The customer's e-mail by its local part (`documents-<time>`): the letterhead prints the company's own @example.com.
const personal = ['Morag Documents', 'documents-', '07700 900456', 'Water through the kitchen ceiling'];

test('the electricity statement and the certificate of dryness: downloaded, read back, and checked at their address', async ({
  page,
  request,
}) => {
  const { reference, notification } = await sentEnquiry(request, `documents-${Date.now()}`);
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
  await page.goto(linkPath(notification, '/claim-update/'));
  const staff = page.getByTestId('staff-update');
  await staff.getByLabel(staffPage.labels.stage).selectOption('dried');
  await staff.getByLabel(staffPage.labels.confirmedBy).fill('Sam Fitter');
  await staff.getByRole('button', { name: staffPage.submit }).click();
  await expect(staff.getByRole('status')).toHaveText(staffPage.saved('Dried: ready for repairs'));

  await page.goto(linkPath(notification, '/track/'));
  await expect(page).toHaveURL(new RegExp(`/claims/${reference}$`));
  const documents = page.getByTestId('drying-documents');

  // The statement with the customer's rate: posted, so the rate is in no address.
  await documents.getByLabel(words.statementRateLabel).fill('24.5');
  const [statementDownload] = await Promise.all([
    page.waitForEvent('download'),
    documents.getByRole('button', { name: words.statementButton }).click(),
  ]);
  expect(statementDownload.url()).toBe(`${testSiteUrl}/claims/${reference}/electricity.pdf`);
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

  // Both print the same verification address; it shows the same figures, kept by no cache and indexed by none.
  const verifyPath = /\/verify\/\d+\.[A-Za-z0-9_-]{32}/.exec(statement)?.[0];
  expect(verifyPath).toBeTruthy();
  expect(certificate).toContain(verifyPath!);
  const answer = await page.goto(verifyPath!);
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()['x-robots-tag']).toBe('noindex, nofollow');
  expect(answer?.headers()['cache-control']).toContain('no-store');
  const verify = page.getByTestId('verify-drying');
  await expect(verify.getByText('Total electricity used: 117.6 kWh')).toBeVisible();
  await expect(verify.getByText(/168\.0 hours; 117\.6 kWh \(rated watts × hours\)/)).toBeVisible();
  await expect(verify.getByText(/Drying confirmed on .+ by Sam Fitter\./)).toBeVisible();
  for (const text of personal) await expect(verify).not.toContainText(text);

  // A forged or unsigned token is a 404; so are the PDFs without the status page's cookie.
  const forged = verifyPath!.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
  expect((await request.get(`${testSiteUrl}${forged}`)).status()).toBe(404);
  expect((await request.get(`${testSiteUrl}/verify/${verifyPath!.split('/')[2]!.split('.')[0]}`)).status()).toBe(404);
  const noCookie = await request.get(`${testSiteUrl}/claims/${reference}/certificate.pdf`);
  expect(noCookie.status()).toBe(404);
  expect(noCookie.headers()['cache-control']).toBe('no-store');
});
