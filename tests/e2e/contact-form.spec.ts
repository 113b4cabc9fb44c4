import { outboxMessages } from '../support/outbox';
import { expect, test, type Page, type Route } from './support/test';
import { axe } from './support/axe';
import { routeRecaptcha, fakeToken } from './support/fake-recaptcha';
import { fakeCrm } from './support/fake-crm';
import { testOutboxDir, testRecaptchaSiteKey } from './test-env';

/** Counts POST /api/contact requests that leave the browser. */
function countContactPosts(page: Page) {
  const posts: Record<string, unknown>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/contact') {
      posts.push(JSON.parse(request.postData() ?? '{}') as Record<string, unknown>);
    }
  });
  return posts;
}

const contactForm = (page: Page) => page.getByRole('form', { name: 'Send us a message' });
const field = (page: Page, label: string | RegExp) => contactForm(page).getByLabel(label);
const name = (page: Page) => field(page, /^Name/);
const email = (page: Page) => field(page, /^Email/);
const phone = (page: Page) => field(page, /^Phone/);
const subject = (page: Page) => field(page, /^Subject/);
const message = (page: Page) => field(page, /^Message/);
const sendButton = (page: Page) => page.getByRole('button', { name: 'Send message' });

async function fillValid(page: Page, overrides: Partial<Record<'name' | 'email' | 'phone' | 'subject' | 'message', string>> = {}) {
  const values = {
    name: 'Jo Bloggs',
    email: 'jo@example.com',
    phone: '0141 496 0000',
    subject: 'Leaking roof',
    message: 'Water is coming through the ceiling after the storm.',
    ...overrides,
  };
  await name(page).fill(values.name);
  await email(page).fill(values.email);
  await phone(page).fill(values.phone);
  await subject(page).fill(values.subject);
  await message(page).fill(values.message);
  return values;
}

/** Answers POST /api/contact in the browser instead of the server, to show each catalogue row. */
async function fakeApi(page: Page, answer: (route: Route) => Promise<void>) {
  await page.route('**/api/contact', answer);
}

async function expectFieldError(page: Page, input: ReturnType<typeof name>, text: string) {
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveAccessibleDescription(text);
  const describedBy = await input.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(text);
}

const REFERENCE_SENTENCE = /^Your reference is HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}\. Quote it if you call us about this enquiry\.$/;

/** The success message verbatim, and under it the enquiry's reference; returns the reference. */
async function expectSuccessWithReference(page: Page): Promise<string> {
  const status = contactForm(page).getByRole('status');
  await expect(status.locator('p').first()).toHaveText('Your message has been sent successfully!');
  const sentence = status.getByTestId('enquiry-reference');
  await expect(sentence).toHaveText(REFERENCE_SENTENCE);
  return (await sentence.locator('strong').textContent()) ?? '';
}

const claimToggle = (page: Page) => contactForm(page).getByRole('checkbox', { name: 'This is about an insurance claim' });
const claimField = (page: Page, label: string) => contactForm(page).getByLabel(label, { exact: true });

async function expectNoFieldErrors(page: Page) {
  for (const input of [name(page), email(page), phone(page), subject(page), message(page)]) {
    await expect(input).not.toHaveAttribute('aria-invalid', 'true');
  }
}

test.beforeEach(async () => {
  await fakeCrm.reset();
});

test('the page shows the details, the form with labelled fields and required marks, and the Google disclosure', async ({ page }) => {
  await routeRecaptcha(page);
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
  const form = page.getByRole('form', { name: 'Send us a message' });
  await expect(form).toBeVisible();
  for (const [input, required] of [
    [name(page), true],
    [email(page), true],
    [phone(page), false],
    [subject(page), true],
    [message(page), true],
  ] as const) {
    await expect(input).toBeVisible();
    if (required) await expect(input).toHaveAttribute('required', '');
    else await expect(input).not.toHaveAttribute('required', '');
  }
  await expect(form.locator('label', { hasText: /^Name\s*\*$/ })).toBeVisible();
  await expect(form.locator('label', { hasText: /^Phone \(optional\)$/ })).toBeVisible();
  await expect(page.getByTestId('recaptcha-disclosure')).toHaveText(
    'This site is protected by reCAPTCHA and the Google Privacy Policy (opens in a new tab) and Terms of Service (opens in a new tab) apply.',
  );
  const disclosure = page.getByTestId('recaptcha-disclosure');
  await expect(disclosure.getByRole('link', { name: /Privacy Policy/ })).toHaveAttribute('href', 'https://policies.google.com/privacy');
  await expect(disclosure.getByRole('link', { name: /Terms of Service/ })).toHaveAttribute('href', 'https://policies.google.com/terms');
});

test('every validation message, verbatim, nothing sent, and the first invalid field focused', async ({ page }) => {
  await routeRecaptcha(page);
  const posts = countContactPosts(page);
  await page.goto('/contact');
  await sendButton(page).click();

  await expectFieldError(page, name(page), 'Name must be at least 2 characters long');
  await expectFieldError(page, email(page), 'Please enter a valid email address');
  await expectFieldError(page, subject(page), 'Subject must be at least 5 characters long');
  await expectFieldError(page, message(page), 'Message must be at least 10 characters long');
  await expect(phone(page)).not.toHaveAttribute('aria-invalid', 'true');
  await expect(name(page)).toBeFocused();

  // Trimmed values: padding does not make a value long enough.
  await fillValid(page, { name: '  J  ', email: '  not-an-email ', subject: '  Roof   ', message: '   too short   ' });
  await sendButton(page).click();
  await expectFieldError(page, name(page), 'Name must be at least 2 characters long');
  await expectFieldError(page, email(page), 'Please enter a valid email address');
  await expectFieldError(page, subject(page), 'Subject must be at least 5 characters long');
  await expectFieldError(page, message(page), 'Message must be at least 10 characters long');

  // One invalid field among valid ones: still nothing sent, and that field gets focus.
  await fillValid(page, { subject: 'Roof' });
  await sendButton(page).click();
  await expectFieldError(page, subject(page), 'Subject must be at least 5 characters long');
  await expect(subject(page)).toBeFocused();
  await expect(name(page)).not.toHaveAttribute('aria-invalid', 'true');

  // A marker: the form, now valid, sent once (answered in the browser). The form takes one press at a
  // time, so a post from a refused press would have left before the marker's: the first post is the marker.
  await fakeApi(page, (route) =>
    route.fulfill({ status: 201, json: { success: true, message: 'Your message has been sent successfully!', reference: 'HC-234-567' } }),
  );
  const marker = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/contact');
  await fillValid(page, { subject: 'Marker after the refused presses' });
  await sendButton(page).click();
  await marker;
  expect(posts.shift()?.subject).toBe('Marker after the refused presses');
  expect(posts).toHaveLength(0);
});

test("typing in a field clears that field's error only", async ({ page }) => {
  await routeRecaptcha(page);
  await page.goto('/contact');
  await sendButton(page).click();
  await expectFieldError(page, email(page), 'Please enter a valid email address');
  await email(page).pressSequentially('j');
  await expect(email(page)).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Please enter a valid email address')).toHaveCount(0);
  await expectFieldError(page, name(page), 'Name must be at least 2 characters long');
  await expectFieldError(page, subject(page), 'Subject must be at least 5 characters long');
});

test('a real submission: submitting state, token for contact_form, success message, empty form, .eml in the outbox', async ({ page }) => {
  const scripts = await routeRecaptcha(page);
  const posts = countContactPosts(page);
  await page.goto('/contact');
  await page.waitForLoadState('networkidle');
  // Never on page load.
  expect(scripts.requested).toHaveLength(0);

  // Hold the request until the submitting state has been seen.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/contact', async (route) => {
    await released;
    await route.continue();
  });
  const unique = `Leak ${Date.now()}`;
  await fillValid(page, { name: '  Jo Bloggs  ', subject: `  ${unique}  ` });
  expect(scripts.requested).toEqual([`https://www.google.com/recaptcha/enterprise.js?render=${testRecaptchaSiteKey}`]);

  await sendButton(page).click();
  const busy = page.getByRole('button', { name: 'Sending…' });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();

  await expectSuccessWithReference(page);
  for (const input of [name(page), email(page), phone(page), subject(page), message(page)]) await expect(input).toHaveValue('');
  await expect(sendButton(page)).toBeEnabled();

  expect(posts).toHaveLength(1);
  expect(posts[0]).toEqual({
    name: 'Jo Bloggs',
    email: 'jo@example.com',
    phone: '0141 496 0000',
    subject: unique,
    message: 'Water is coming through the ceiling after the storm.',
    // Where it came from: this visit landed on /contact and sent the form from there, with no referrer.
    sentFrom: '/contact',
    landingPage: '/contact',
    recaptchaToken: fakeToken(1),
    website: '',
    // The enquiry's key, made when the form took over the page and sent with every try.
    enquiryKey: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
  });
  expect(await page.evaluate(() => (window as unknown as { __recaptcha: { executed: unknown[] } }).__recaptcha.executed)).toEqual([
    { siteKey: testRecaptchaSiteKey, action: 'contact_form' },
  ]);

  // The outbox worker of the production server delivers it (no SMTP_URL: an .eml file).
  await expect
    .poll(() => outboxMessages(testOutboxDir).filter((raw) => raw.includes(unique)), {
      timeout: 10_000,
    })
    .toHaveLength(1);

  // Logged with source contact-form, without the message text or contact details.
  await expect.poll(async () => (await fakeCrm.errorLogs()).filter((entry) => entry.source === 'contact-form')).toHaveLength(1);
  const [entry] = (await fakeCrm.errorLogs()).filter((log) => log.source === 'contact-form');
  expect(entry).toMatchObject({ level: 'info', source: 'contact-form', statusCode: 201 });
  const logged = JSON.stringify(entry);
  for (const secret of ['Jo Bloggs', 'jo@example.com', '0141 496 0000', unique, 'Water is coming']) expect(logged).not.toContain(secret);
});

test('a second submission asks for a fresh token', async ({ page }) => {
  await routeRecaptcha(page);
  const posts = countContactPosts(page);
  await page.goto('/contact');
  await fillValid(page, { subject: `First ${Date.now()}` });
  await sendButton(page).click();
  await expectSuccessWithReference(page);
  await fillValid(page, { subject: `Second ${Date.now()}` });
  await sendButton(page).click();
  await expect.poll(() => posts.length).toBe(2);
  expect(posts.map((post) => post.recaptchaToken)).toEqual([fakeToken(1), fakeToken(2)]);
  // Both answered and logged before the next test starts, so no log of this one reaches it.
  await expect.poll(async () => (await fakeCrm.errorLogs()).filter((entry) => entry.source === 'contact-form')).toHaveLength(2);
});

test('field errors from the server appear under the matching fields', async ({ page }) => {
  await routeRecaptcha(page);
  await fakeApi(page, (route) =>
    route.fulfill({
      status: 422,
      json: {
        success: false,
        message: 'Please correct the highlighted fields.',
        errors: [
          { path: 'email', msg: 'This address does not accept mail' },
          { path: 'subject', msg: 'Subject is not allowed' },
        ],
      },
    }),
  );
  await page.goto('/contact');
  await fillValid(page);
  await sendButton(page).click();
  await expect(contactForm(page).getByRole('alert').filter({ hasText: 'Please correct' })).toHaveText(
    'Please correct the highlighted fields.',
  );
  await expectFieldError(page, email(page), 'This address does not accept mail');
  await expectFieldError(page, subject(page), 'Subject is not allowed');
  await expect(email(page)).toBeFocused();
  // The form keeps what the visitor typed.
  await expect(name(page)).toHaveValue('Jo Bloggs');
  // The failure is logged without contact details.
  await expect.poll(async () => (await fakeCrm.errorLogs()).filter((entry) => entry.source === 'contact-form')).toHaveLength(1);
  const [entry] = (await fakeCrm.errorLogs()).filter((log) => log.source === 'contact-form');
  expect(entry).toMatchObject({ level: 'error', statusCode: 422, metadata: { outcome: 'error', fieldErrors: ['email', 'subject'] } });
  expect(JSON.stringify(entry)).not.toContain('jo@example.com');
});

const catalogue: { row: string; answer: (route: Route) => Promise<void>; kind: 'status' | 'alert'; text: string }[] = [
  {
    row: 'HTTP 429',
    answer: (route) => route.fulfill({ status: 429, headers: { 'Retry-After': '600' }, json: { success: false, message: 'Slow down' } }),
    kind: 'alert',
    text: 'Too many requests. Please try again later.',
  },
  {
    row: "the server's message",
    answer: (route) =>
      route.fulfill({
        status: 400,
        json: { success: false, message: 'The reCAPTCHA check failed. Please reload the page and try again.' },
      }),
    kind: 'alert',
    text: 'The reCAPTCHA check failed. Please reload the page and try again.',
  },
  {
    row: 'no message from the server',
    answer: (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' }),
    kind: 'alert',
    text: 'Failed to send message. Please try again or contact us directly.',
  },
  {
    row: 'success false without a message',
    answer: (route) => route.fulfill({ status: 200, json: { success: false } }),
    kind: 'alert',
    text: 'Failed to send message',
  },
  {
    row: 'success without a message (the default)',
    answer: (route) => route.fulfill({ status: 201, json: { success: true } }),
    kind: 'status',
    text: 'Your message has been sent successfully!',
  },
  {
    row: "success with the server's message",
    answer: (route) => route.fulfill({ status: 201, json: { success: true, message: 'Thanks, we will call you back today.' } }),
    kind: 'status',
    text: 'Thanks, we will call you back today.',
  },
];

test('catalogue: no answer at all → it says the enquiry may not have arrived, keeps trying for five minutes, then Failed to send message. Please try again or contact us directly.', async ({
  page,
}) => {
  await page.clock.install();
  await routeRecaptcha(page);
  let tries = 0;
  await fakeApi(page, (route) => {
    tries += 1;
    return route.abort('connectionreset');
  });
  await page.goto('/contact');
  await fillValid(page);
  await sendButton(page).click();
  await expect(contactForm(page).getByTestId('send-retry')).toContainText(
    'We could not confirm that your enquiry reached us: your connection may have dropped. It may not have arrived yet, so we will keep trying',
  );
  await expect(contactForm(page).getByRole('alert')).toHaveText('');
  // Two, four, eight… seconds apart, for five minutes: the clock is moved a minute at a time (eight at
  // most) between the polls of the alert, so each minute's failed try has come back before the next.
  let minutes = 0;
  await expect
    .poll(
      async () => {
        if ((await contactForm(page).getByRole('alert').textContent()) !== '') return true;
        if (minutes < 8) {
          minutes += 1;
          await page.clock.runFor(60_000);
        }
        return false;
      },
      { timeout: 30_000, intervals: [250, 500, 1_000] },
    )
    .toBe(true);
  await expect(contactForm(page).getByRole('alert')).toHaveText('Failed to send message. Please try again or contact us directly.');
  await expect(contactForm(page).getByTestId('send-retry')).toHaveCount(0);
  expect(tries).toBeGreaterThanOrEqual(5);
  await expect(sendButton(page)).toBeEnabled();
  await expect(name(page)).toHaveValue('Jo Bloggs');
});

for (const { row, answer, kind, text } of catalogue) {
  test(`catalogue: ${row} → ${text}`, async ({ page }) => {
    await routeRecaptcha(page);
    await fakeApi(page, answer);
    await page.goto('/contact');
    await fillValid(page);
    await sendButton(page).click();
    await expect(contactForm(page).getByRole(kind)).toHaveText(text);
    await expect(
      contactForm(page)
        .getByRole(kind === 'status' ? 'alert' : 'status')
        .filter({ hasText: /\S/ }),
    ).toHaveCount(0);
    await expectNoFieldErrors(page);
    await expect(sendButton(page)).toBeEnabled();
    // Success empties the form; an error keeps what was typed.
    await expect(name(page)).toHaveValue(kind === 'status' ? '' : 'Jo Bloggs');
  });
}

test('reCAPTCHA script unreachable: generic failure, nothing sent, logged', async ({ page }) => {
  const scripts = await routeRecaptcha(page, 'unreachable');
  const posts = countContactPosts(page);
  await page.goto('/contact');
  await fillValid(page);
  await sendButton(page).click();
  await expect(contactForm(page).getByRole('alert')).toHaveText('Failed to send message. Please try again or contact us directly.');
  expect(scripts.requested.length).toBeGreaterThanOrEqual(1);
  expect(posts).toHaveLength(0);
  await expect
    .poll(async () => (await fakeCrm.errorLogs()).filter((entry) => entry.source === 'contact-form').map((entry) => entry.message))
    .toEqual(['Failed to load reCAPTCHA script']);
  // What the visitor typed is kept for another try.
  await expect(message(page)).toHaveValue('Water is coming through the ceiling after the storm.');
});

test('the form works by keyboard alone', async ({ page }) => {
  await routeRecaptcha(page);
  await fakeApi(page, (route) => route.fulfill({ status: 201, json: { success: true } }));
  await page.goto('/contact');
  await name(page).focus();
  await page.keyboard.type('Jo Bloggs');
  await page.keyboard.press('Tab');
  await expect(email(page)).toBeFocused();
  await page.keyboard.type('jo@example.com');
  await page.keyboard.press('Tab');
  await expect(phone(page)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(subject(page)).toBeFocused();
  await page.keyboard.type('Leaking roof');
  await page.keyboard.press('Tab');
  await expect(message(page)).toBeFocused();
  await page.keyboard.type('Water is coming through the ceiling.');
  // The claim part's checkbox, the photos, then (the honeypot skipped) the button.
  await page.keyboard.press('Tab');
  await expect(claimToggle(page)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(field(page, 'Photos of the damage (optional)')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sendButton(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(contactForm(page).getByRole('status')).toHaveText('Your message has been sent successfully!');
});

test('axe: no violations on the contact page with errors and a failure message shown', async ({ page }) => {
  await routeRecaptcha(page);
  await fakeApi(page, (route) =>
    route.fulfill({
      status: 422,
      json: { success: false, message: 'Please correct the highlighted fields.', errors: [{ path: 'email', msg: 'Nope' }] },
    }),
  );
  await page.goto('/contact');
  await sendButton(page).click();
  await expect(name(page)).toHaveAttribute('aria-invalid', 'true');
  let results = await axe(page).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);

  await fillValid(page);
  await sendButton(page).click();
  await expect(contactForm(page).getByRole('alert')).toHaveText('Please correct the highlighted fields.');
  results = await axe(page).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
});

test.describe('insurance claim details', () => {
  test.use({ locale: 'en-GB' });
  test('a link can open the claim part with the damage or the role chosen; a value the form does not offer is ignored', async ({
    page,
  }) => {
    await page.goto('/contact?damage=fire-smoke');
    await expect(claimToggle(page)).toBeChecked();
    await expect(claimField(page, 'Type of damage')).toHaveValue('fire-smoke');
    expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

    await page.goto('/contact?role=insurer');
    await expect(claimToggle(page)).toBeChecked();
    await expect(claimField(page, 'Who is getting in touch')).toHaveValue('insurer');
    await expect(claimField(page, 'Type of damage')).toHaveValue('');

    await page.goto('/contact?claim=open');
    await expect(claimToggle(page)).toBeChecked();
    await expect(claimField(page, 'Type of damage')).toHaveValue('');

    for (const ignored of ['/contact?damage=meteorite', '/contact?role=admin&damage=%3Cscript%3E', '/contact?utm_source=google']) {
      await page.goto(ignored);
      await expect(contactForm(page).getByRole('button', { name: 'Send message' })).toBeEnabled();
      // Hydrated, the query read: still closed.
      await page.waitForLoadState('networkidle');
      await expect(claimToggle(page), ignored).not.toBeChecked();
      await expect(claimField(page, 'Type of damage')).toBeHidden();
    }
  });
  test('closed by default; opened with the mouse, filled and sent with the enquiry; the reference is shown and the company’s e-mail carries them', async ({
    page,
  }) => {
    await routeRecaptcha(page);
    const posts = countContactPosts(page);
    await page.goto('/contact');
    await expect(claimToggle(page)).not.toBeChecked();
    await expect(claimField(page, 'Postcode of the property')).toBeHidden();
    expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

    await claimToggle(page).click();
    await expect(contactForm(page).getByRole('group', { name: 'Claim details', exact: true })).toBeVisible();
    expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
    const unique = `Claim ${Date.now()}`;
    await fillValid(page, { subject: unique });
    await claimField(page, 'Who is getting in touch').selectOption({ label: 'Managing agent or landlord' });
    // An instruction's fields are for insurers and loss adjusters only.
    await expect(claimField(page, 'Policyholder’s name')).toBeHidden();
    await claimField(page, 'Insurer’s name').fill('Example Mutual');
    await claimField(page, 'Claim or policy reference').fill('CLM-2026-0042');
    await claimField(page, 'Date of the damage').fill('2025-11-14');
    await claimField(page, 'Type of damage').selectOption({ label: 'Water damage' });
    await claimField(page, 'Postcode of the property').fill('g67 1ab');
    await sendButton(page).click();
    const reference = await expectSuccessWithReference(page);

    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      subject: unique,
      claimRole: 'agent-landlord',
      insurer: 'Example Mutual',
      claimReference: 'CLM-2026-0042',
      damageDate: '2025-11-14',
      damageType: 'water-damage',
      postcode: 'G67 1AB',
    });
    // Sent: the part closes and empties.
    await expect(claimToggle(page)).not.toBeChecked();
    await claimToggle(page).click();
    await expect(claimField(page, 'Postcode of the property')).toHaveValue('');

    const notification = () =>
      outboxMessages(testOutboxDir)
        .map((raw) => raw.replace(/=\r?\n/g, ''))
        .find((raw) => raw.includes(unique));
    await expect.poll(notification, { timeout: 10_000 }).toBeTruthy();
    const raw = notification()!;
    expect(raw).toMatch(new RegExp(`^Subject: Enquiry ${reference}: Water damage: ${unique}$`, 'm'));
    expect(raw).toContain('CLAIM DETAILS');
    expect(raw).toContain('G67 1AB');
    expect(raw).toContain('14/11/2025');
  });

  test('by keyboard alone: opened with Space, questions answered with the arrow keys, errors tied to their fields, focus on the first; closing it sends none of it', async ({
    page,
  }) => {
    await routeRecaptcha(page);
    const posts = countContactPosts(page);
    await page.goto('/contact');
    await fillValid(page);
    await message(page).focus();
    await page.keyboard.press('Tab');
    await expect(claimToggle(page)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(claimToggle(page)).toBeChecked();
    // The three urgency questions: one tab stop each, answered with the arrow keys.
    const urgency = contactForm(page).getByRole('group', { name: 'How urgent is it?' });
    const question = (name: RegExp) => urgency.getByRole('group', { name });
    await page.keyboard.press('Tab');
    await expect(question(/still getting worse/).getByRole('radio', { name: 'Yes' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(question(/still getting worse/).getByRole('radio', { name: 'No', exact: true })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(question(/stay in the home tonight/).getByRole('radio', { name: 'Yes' })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(question(/stay in the home tonight/).getByRole('radio', { name: 'Yes' })).toBeChecked();
    // The link that says why the third question is asked comes first, with its question.
    await page.keyboard.press('Tab');
    await expect(urgency.getByRole('link', { name: 'how we use it' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(question(/particular risk/).getByRole('radio', { name: 'Yes' })).toBeFocused();
    for (const [label, typed] of [
      ['Who is getting in touch', 'Insurer'],
      ['Insurer’s name', 'Example Mutual'],
      ['Claim or policy reference', 'P-1'],
    ] as const) {
      await page.keyboard.press('Tab');
      await expect(claimField(page, label)).toBeFocused();
      await page.keyboard.type(typed);
    }
    await expect(claimField(page, 'Who is getting in touch')).toHaveValue('insurer');
    // The date field's day, month and year (en-GB: dd/mm/yyyy), typed; a date in the future.
    await page.keyboard.press('Tab');
    await expect(claimField(page, 'Date of the damage')).toBeFocused();
    await page.keyboard.type('01012099');
    await expect(claimField(page, 'Date of the damage')).toHaveValue('2099-01-01');
    // Chromium's calendar button inside the date field is a tab stop of its own.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(claimField(page, 'Type of damage')).toBeFocused();
    await page.keyboard.type('Storm');
    await expect(claimField(page, 'Type of damage')).toHaveValue('storm-weather');
    // An insurer's instruction: the policyholder and the property (the address left out), then the policy.
    for (const [label, typed] of [
      ['Policyholder’s name', 'Ann Policy'],
      ['Policyholder’s telephone', '07700 900123'],
      ['Address of the property (street and town)', ''],
      ['Postcode of the property', 'NOT A CODE'],
    ] as const) {
      await page.keyboard.press('Tab');
      await expect(contactForm(page).getByLabel(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`))).toBeFocused();
      await page.keyboard.type(typed);
    }
    await page.keyboard.press('Tab');
    const vat = contactForm(page).getByRole('group', { name: /registered for VAT/ });
    await expect(vat.getByRole('radio', { name: 'Yes' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(vat.getByRole('radio', { name: 'No', exact: true })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(contactForm(page).getByLabel(/^Policy excess/)).toBeFocused();
    await page.keyboard.type('250');
    await page.keyboard.press('Tab');
    await expect(
      contactForm(page)
        .getByRole('group', { name: /desktop assessment/ })
        .getByRole('radio', { name: 'Yes' }),
    ).toBeFocused();
    // What would help us work with the person, last in the claim part: its hint's link, then its answers.
    await page.keyboard.press('Tab');
    await expect(contactForm(page).getByRole('link', { name: 'how we keep it' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(contactForm(page).getByRole('checkbox', { name: 'No phone calls, please' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(contactForm(page).getByLabel('What would help', { exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(field(page, 'Photos of the damage (optional)')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(sendButton(page)).toBeFocused();
    await page.keyboard.press('Enter');

    await expectFieldError(page, claimField(page, 'Date of the damage'), 'The date of the damage cannot be in the future');
    await expectFieldError(page, claimField(page, 'Postcode of the property'), 'Enter a UK postcode, like G67 1AB');
    await expectFieldError(page, contactForm(page).getByLabel(/^Address of the property/), 'Enter the address of the property');
    await expect(claimField(page, 'Date of the damage')).toBeFocused();
    expect(posts).toHaveLength(0);
    expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

    // Closed again: its errors go, and nothing of it is sent.
    await claimToggle(page).focus();
    await page.keyboard.press('Space');
    await expect(claimToggle(page)).not.toBeChecked();
    await sendButton(page).focus();
    await page.keyboard.press('Enter');
    await expectSuccessWithReference(page);
    expect(posts).toHaveLength(1);
    expect(Object.keys(posts[0]!).sort()).toEqual([
      'email',
      'enquiryKey',
      'landingPage',
      'message',
      'name',
      'phone',
      'recaptchaToken',
      'sentFrom',
      'subject',
      'website',
    ]);
  });

  test('the server holds the same rules: a bad postcode sent directly is refused with the same message', async ({ request }) => {
    const response = await request.post('/api/contact', {
      data: {
        name: 'Jo Bloggs',
        email: 'jo@example.com',
        phone: '',
        subject: 'Direct post',
        message: 'Posted without the form.',
        postcode: 'NOPE',
        damageDate: '2099-01-01',
      },
    });
    expect(response.status()).toBe(422);
    expect(await response.json()).toMatchObject({
      errors: [
        { path: 'damageDate', msg: 'The date of the damage cannot be in the future' },
        { path: 'postcode', msg: 'Enter a UK postcode, like G67 1AB' },
      ],
    });
  });
});
