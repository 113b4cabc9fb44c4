import { expect, test, type Page } from './support/test';
import { parseMail } from '../support/mail-message';
import { watchCspViolations } from './support/csp-violations';
import { routeRecaptcha } from './support/fake-recaptcha';
import { ownLoopbackAddress, startUnreliableForwarder } from '../support/unreliable-forwarder';
import { peersControlUrl, productionSiteUrl } from './test-env';

// An emergency from a phone and an instruction from a loss adjuster, end to end against the
// production-configuration build (reCAPTCHA with assessments, SMTP to the fake). Which of several
// queued notifications goes out first is decided by the outbox's claim order, tested without timing in
// server/delivery/outbox-worker.test.ts ("urgent enquiries first"); here, what the visitor and the
// company see. Each test reaches the site through a forwarder from a loopback address of its own, so
// the acknowledgement caps per client (two an hour) are its own.

/** The site's address for this test, through a forwarder of its own; closed after the test. */
async function ownClient(): Promise<string> {
  const forwarder = await startUnreliableForwarder(productionSiteUrl, { sourceAddress: ownLoopbackAddress() });
  closers.push(forwarder.close);
  return forwarder.url;
}
const closers: (() => Promise<void>)[] = [];
test.afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type ReceivedMail = { from: string; to: string[]; subject: string; raw: string };
const REFERENCE = /HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/;
const phone = { width: 375, height: 812 };

async function mails(): Promise<ReceivedMail[]> {
  return (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[];
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function fillContact(page: Page, values: { name: string; email: string; subject: string; message: string }) {
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel(/^Name/).fill(values.name);
  await form.getByLabel(/^Email/).fill(values.email);
  await form.getByLabel(/^Subject/).fill(values.subject);
  await form.getByLabel(/^Message/).fill(values.message);
  return form;
}

test('phone: an emergency claim shows the emergency line to call now, and reaches the company as URGENT with why', async ({ page }) => {
  await page.setViewportSize(phone);
  const violations = await watchCspViolations(page);
  await routeRecaptcha(page);
  await page.goto(`${await ownClient()}/contact`);
  await page.waitForLoadState('networkidle');
  const subject = `Ceiling coming down ${unique()}`;
  const form = await fillContact(page, {
    name: 'Morag Visitor',
    email: `morag.${unique()}@example.com`,
    subject,
    message: 'Water is pouring through the kitchen ceiling and it is getting worse.',
  });
  await form.getByLabel('This is about an insurance claim').check();
  const urgency = form.getByRole('group', { name: 'How urgent is it?' });
  await expect(urgency).toBeVisible();
  await urgency
    .getByRole('group', { name: /still getting worse/ })
    .getByRole('radio', { name: 'Yes', exact: true })
    .check();
  await urgency
    .getByRole('group', { name: /stay in the home tonight/ })
    .getByRole('radio', { name: 'Not sure' })
    .check();
  await urgency
    .getByRole('group', { name: /particular risk/ })
    .getByRole('radio', { name: 'Yes', exact: true })
    .check();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form.getByRole('button', { name: 'Send message' }).click();
  expect((await answered).status()).toBe(201);

  const status = form.getByRole('status');
  await expect(status.locator('p').first()).toHaveText('Your message has been sent successfully!');
  const call = status.getByTestId('urgent-call').getByRole('link', { name: 'Call 0141 496 0999 now' });
  await expect(call).toBeVisible();
  await expect(call).toHaveAttribute('href', 'tel:+441414960999');
  // Big enough to press with a thumb.
  const box = await call.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  const reference = (await status.getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
  expect(reference).toMatch(REFERENCE);

  await expect.poll(async () => (await mails()).filter((mail) => mail.subject.includes(subject)).length, { timeout: 15_000 }).toBe(1);
  const [notification] = (await mails()).filter((mail) => mail.subject.includes(subject));
  expect(notification!.subject).toBe(`URGENT: Enquiry ${reference}: ${subject}`);
  const lines = parseMail(notification!.raw).text.split('\n');
  expect(lines.slice(0, 4)).toEqual([
    'URGENT: call back first.',
    '- The damage is still getting worse.',
    '- Someone living there is at particular risk (very old, very young or unwell).',
    '',
  ]);
  // The acknowledgement (sent after the urgent notification) repeats none of the answers.
  const ackSubject = `We have your enquiry ${reference}: Example Homecare`;
  await expect.poll(async () => (await mails()).filter((mail) => mail.subject === ackSubject).length, { timeout: 15_000 }).toBe(1);
  const acknowledgement = (await mails()).find((mail) => mail.subject === ackSubject)!;
  expect(parseMail(acknowledgement.raw).text).not.toMatch(/particular risk|getting worse/);
  expect(await violations.all()).toEqual([]);
});

test('a loss adjuster instructs from /insurers: every instruction field in one block, and an acknowledgement pairing both references', async ({
  page,
}) => {
  const violations = await watchCspViolations(page);
  await routeRecaptcha(page);
  await page.goto(`${await ownClient()}/insurers`);
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: 'Instruct us as a loss adjuster' }).first().click();
  await expect(page).toHaveURL(/\/contact\?role=loss-adjuster$/);
  const form = page.getByRole('form', { name: 'Send us a message' });
  await expect(form.getByLabel('Who is getting in touch')).toHaveValue('loss-adjuster');
  const policyholder = form.getByLabel(/^Policyholder’s name/);
  await expect(policyholder).toBeVisible();

  const claimNumber = `LA-${Date.now()}`;
  const email = `adjuster.${unique()}@adjusters.example`;
  const subject = `Instruction ${claimNumber}`;
  await fillContact(page, { name: 'Alex Adjuster', email, subject, message: 'Escape of water from the bathroom above. Please survey.' });
  await form.getByLabel(/^Phone/).fill('0141 496 0777');
  await form.getByLabel('Insurer’s name').fill('Example Mutual');
  await form.getByLabel('Claim or policy reference').fill(claimNumber);
  await form.getByLabel('Type of damage').selectOption('water-damage');
  await policyholder.fill('Ann Policy');
  await form.getByLabel(/^Policyholder’s telephone/).fill('07700 900123');
  await form.getByLabel(/^Address of the property/).fill('Flat 2, 1 High Street\nKilsyth');
  await form.getByLabel('Postcode of the property').fill('g65 0aa');
  await form
    .getByRole('group', { name: /registered for VAT/ })
    .getByRole('radio', { name: 'No', exact: true })
    .check();
  await form.getByLabel(/^Policy excess/).fill('350');
  await form
    .getByRole('group', { name: /desktop assessment/ })
    .getByRole('radio', { name: 'Yes', exact: true })
    .check();
  await form
    .getByRole('group', { name: /stay in the home tonight/ })
    .getByRole('radio', { name: 'Yes', exact: true })
    .check();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form.getByRole('button', { name: 'Send message' }).click();
  expect((await answered).status()).toBe(201);
  const status = form.getByRole('status');
  const reference = (await status.getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
  expect(reference).toMatch(REFERENCE);
  // Not urgent: no emergency line offered.
  await expect(status.getByTestId('urgent-call')).toHaveCount(0);

  await expect.poll(async () => (await mails()).filter((mail) => mail.subject.includes(subject)).length, { timeout: 15_000 }).toBe(1);
  const [notification] = (await mails()).filter((mail) => mail.subject.includes(subject));
  expect(notification!.subject).toBe(`Instruction ${reference}: Water damage: ${subject}`);
  const text = parseMail(notification!.raw).text;
  const block = text.slice(text.indexOf('INSTRUCTION'), text.indexOf('\n\n', text.indexOf('INSTRUCTION'))).split('\n');
  expect(block).toEqual([
    'INSTRUCTION',
    'Instructed by:        Alex Adjuster, Loss adjuster, Example Mutual',
    `Contact:              ${email}, 0141 496 0777`,
    `Their claim number:   ${claimNumber}`,
    `Our reference:        ${reference}`,
    'Policyholder:         Ann Policy',
    'Policyholder phone:   07700 900123',
    'Property:             Flat 2, 1 High Street',
    '                      Kilsyth',
    'Postcode:             G65 0AA',
    'VAT-registered:       No',
    'Excess:               £350',
    'Desktop assessment:   Yes, acceptable',
    'Damage:               Water damage',
    'Urgency:              Can stay tonight: Yes',
  ]);

  const ackSubject = `Instruction received: our reference ${reference}, your claim ${claimNumber}: Example Homecare`;
  await expect.poll(async () => (await mails()).filter((mail) => mail.subject === ackSubject).length, { timeout: 15_000 }).toBe(1);
  const acknowledgement = (await mails()).find((mail) => mail.subject === ackSubject)!;
  expect(acknowledgement.to).toEqual([email]);
  const ackText = parseMail(acknowledgement.raw).text;
  expect(ackText).toContain(`Our reference ${reference} is paired with your claim number ${claimNumber}`);
  for (const detail of ['Ann Policy', '07700 900123', 'High Street', 'Kilsyth', 'G65 0AA', '£350', 'Escape of water'])
    expect(ackText).not.toContain(detail);
  expect(await violations.all()).toEqual([]);
});
