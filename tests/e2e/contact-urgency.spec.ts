import { outboxMessages } from '../support/outbox';
import { expect, test, type Browser, type Page } from './support/test';
import { parseMail } from '../support/mail-message';
import { axe } from './support/axe';
import { savedDraftFields } from './support/draft';
import { routeRecaptcha } from './support/fake-recaptcha';
import { testOutboxDir } from './test-env';

// The urgency questions and an insurer's instruction in the form, against the default test build: shown
// and hidden by CSS (so they work before or without JavaScript), clean under axe with and without their
// errors, kept in the draft, and posted natively.

const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });
const instructionField = (page: Page) => form(page).getByLabel(/^Policyholder’s name/);

function outboxMails(unique: string) {
  return outboxMessages(testOutboxDir)
    .filter((raw) => raw.includes(unique))
    .map((raw) => parseMail(raw));
}

async function fillText(page: Page, subject: string) {
  await form(page).getByLabel(/^Name/).fill('Jo Bloggs');
  await form(page)
    .getByLabel(/^Email/)
    .fill('jo@example.com');
  await form(page)
    .getByLabel(/^Subject/)
    .fill(subject);
  await form(page)
    .getByLabel(/^Message/)
    .fill('Water came through the kitchen ceiling overnight.');
}

async function violations(page: Page) {
  return (await axe(page).analyze()).violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`,
  );
}

/** axe needs script in the page: the no-JavaScript page's markup is checked in a page that has it (its own scripts stay out). */
async function axeViolationsOf(browser: Browser, page: Page): Promise<string[]> {
  const html = await page.content();
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const checked = await context.newPage();
    await checked.route('**/*', (route) => route.abort());
    await checked.setContent(html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ''));
    return (await axe(checked).analyze()).violations.map((violation) => violation.id);
  } finally {
    await context.close();
  }
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`${viewport.name}: /contact?role=insurer opens the instruction; clean under axe, with and without its errors`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await routeRecaptcha(page);
    await page.goto('/contact?role=insurer');
    await expect(form(page).getByLabel('Who is getting in touch')).toHaveValue('insurer');
    await expect(instructionField(page)).toBeVisible();
    await expect(form(page).getByRole('group', { name: 'How urgent is it?' })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await fillText(page, 'Instruction with gaps');
    await form(page)
      .getByLabel(/^Policyholder’s telephone/)
      .fill('call the office');
    await form(page)
      .getByLabel(/^Policy excess/)
      .fill('a lot');
    await form(page).getByRole('button', { name: 'Send message' }).click();
    await expect(instructionField(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(instructionField(page)).toBeFocused();
    await expect(instructionField(page)).toHaveAccessibleDescription('Enter the policyholder’s name');
    await expect(form(page).getByLabel(/^Policyholder’s telephone/)).toHaveAccessibleDescription(
      'Enter the policyholder’s telephone number, like 0141 496 0123',
    );
    await expect(form(page).getByLabel(/^Policy excess/)).toHaveAccessibleDescription(
      'Enter the excess as an amount in pounds, like 250 or £1,000',
    );
    // Nothing typed is lost.
    await expect(form(page).getByLabel(/^Policyholder’s telephone/)).toHaveValue('call the office');
    expect(await violations(page)).toEqual([]);

    // Another role: the instruction's fields hide, and they no longer count.
    await form(page).getByLabel('Who is getting in touch').selectOption('homeowner');
    await expect(instructionField(page)).toBeHidden();
  });
}

test('the urgency questions and an instruction come back after a reload, from the draft on this device', async ({ page }) => {
  await page.goto('/contact?role=loss-adjuster');
  await expect(instructionField(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  await instructionField(page).fill('Ann Policy');
  await form(page)
    .getByLabel(/^Address of the property/)
    .fill('1 High Street\nKilsyth');
  await form(page)
    .getByRole('group', { name: /stay in the home tonight/ })
    .getByRole('radio', { name: 'No', exact: true })
    .check();
  await form(page)
    .getByRole('group', { name: /registered for VAT/ })
    .getByRole('radio', { name: 'Not known' })
    .check();
  // The draft is saved shortly after typing stops: the next page is opened once it holds the last answers.
  await expect
    .poll(() => savedDraftFields(page))
    .toMatchObject({
      fields: {
        claimRole: 'loss-adjuster',
        policyholderName: 'Ann Policy',
        propertyAddress: '1 High Street\nKilsyth',
        habitable: 'no',
        vatRegistered: 'not-known',
      },
    });
  await page.goto('/contact');
  await expect(form(page).getByText('We kept what you started here earlier on this device')).toBeVisible();
  await expect(form(page).getByLabel('Who is getting in touch')).toHaveValue('loss-adjuster');
  await expect(instructionField(page)).toHaveValue('Ann Policy');
  await expect(form(page).getByLabel(/^Address of the property/)).toHaveValue('1 High Street\nKilsyth');
  await expect(
    form(page)
      .getByRole('group', { name: /stay in the home tonight/ })
      .getByRole('radio', { name: 'No', exact: true }),
  ).toBeChecked();
  await expect(
    form(page)
      .getByRole('group', { name: /registered for VAT/ })
      .getByRole('radio', { name: 'Not known' }),
  ).toBeChecked();
  await form(page).getByRole('button', { name: 'Clear form' }).click();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('choosing Insurer shows the instruction by CSS alone; an urgent instruction lands on a page with the emergency line', async ({
    page,
    browser,
  }) => {
    await page.goto('/contact');
    await form(page).getByLabel('This is about an insurance claim').check();
    await expect(instructionField(page)).toBeHidden();
    await form(page).getByLabel('Who is getting in touch').selectOption('insurer');
    await expect(instructionField(page)).toBeVisible();
    const unique = `No script instruction ${Date.now()}`;
    await fillText(page, unique);
    await instructionField(page).fill('Ann Policy');
    await form(page)
      .getByLabel(/^Policyholder’s telephone/)
      .fill('07700 900123');
    await form(page)
      .getByLabel(/^Address of the property/)
      .fill('1 High Street');
    await form(page).getByLabel('Postcode of the property').fill('g65 0aa');
    await form(page).getByLabel('Claim or policy reference').fill('INS-4242');
    await form(page)
      .getByRole('group', { name: /particular risk/ })
      .getByRole('radio', { name: 'Yes', exact: true })
      .check();
    const posted = page.waitForResponse((response) => response.request().method() === 'POST');
    await form(page).getByRole('button', { name: 'Send message' }).click();
    expect((await posted).status()).toBe(303);
    await expect(page).toHaveURL(/\/contact\/sent\?reference=HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}&urgent=1$/);
    const call = page.getByTestId('urgent-call').getByRole('link', { name: 'Call 0141 496 0999 now' });
    await expect(call).toHaveAttribute('href', 'tel:+441414960999');
    expect(await axeViolationsOf(browser, page)).toEqual([]);

    await expect.poll(() => outboxMails(unique).length, { timeout: 10_000 }).toBe(1);
    const mail = outboxMails(unique)[0]!;
    expect(mail.text.split('\n').slice(0, 2)).toEqual([
      'URGENT: call back first.',
      '- Someone living there is at particular risk (very old, very young or unwell).',
    ]);
    expect(mail.text).toMatch(/^Policyholder: +Ann Policy$/m);
    expect(mail.text).toMatch(/^Their claim number: +INS-4242$/m);
  });

  test('a refused instruction comes back with each message under its field and every value kept', async ({ page }) => {
    await page.goto('/contact');
    await form(page).getByLabel('This is about an insurance claim').check();
    await form(page).getByLabel('Who is getting in touch').selectOption('loss-adjuster');
    await fillText(page, `Refused instruction ${Date.now()}`);
    await form(page)
      .getByLabel(/^Policyholder’s telephone/)
      .fill('not a number');
    await form(page)
      .getByLabel(/^Policy excess/)
      .fill('£2,500');
    await form(page)
      .getByRole('group', { name: /desktop assessment/ })
      .getByRole('radio', { name: 'No', exact: true })
      .check();
    await form(page).getByRole('button', { name: 'Send message' }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(instructionField(page)).toBeVisible();
    await expect(instructionField(page)).toHaveAccessibleDescription('Enter the policyholder’s name');
    await expect(form(page).getByLabel(/^Policyholder’s telephone/)).toHaveValue('not a number');
    await expect(form(page).getByLabel(/^Policy excess/)).toHaveValue('£2,500');
    await expect(
      form(page)
        .getByRole('group', { name: /desktop assessment/ })
        .getByRole('radio', { name: 'No', exact: true }),
    ).toBeChecked();
  });
});
