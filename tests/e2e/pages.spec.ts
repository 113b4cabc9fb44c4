import { expect, test } from './support/test';
import { accreditations } from '@/content/accreditations';
import { business } from '@/content/business';
import { serviceGroups, services } from '@/content/services';
import { testimonials } from '@/content/testimonials';
import { allRoutes as routes } from '../../scripts/support/routes';

for (const route of routes) {
  test(`${route.path} answers 200 with its heading, the shared layout and the footer`, { tag: '@smoke' }, async ({ page }) => {
    const response = await page.goto(route.path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.h1);
    await expect(page.getByRole('banner').getByRole('link', { name: `${business.name} home` })).toHaveAttribute('href', '/');

    const footer = page.getByRole('contentinfo');
    await expect(footer.getByText(business.legalName, { exact: true }).first()).toBeVisible();
    await expect(footer.locator('address')).toHaveText(business.address.lines.join(''));
    await expect(footer.getByRole('link', { name: business.phone.display })).toHaveAttribute('href', `tel:${business.phone.e164}`);
    await expect(footer.getByRole('link', { name: business.email })).toHaveAttribute('href', `mailto:${business.email}`);
    await expect(footer).toContainText(`© 2025 ${business.legalName}`);
    const credit = footer.getByRole('link', { name: new RegExp(business.builderCredit.name) });
    await expect(credit).toHaveAttribute('target', '_blank');
    await expect(credit).toHaveAttribute('rel', 'noopener noreferrer');
    for (const [label, href] of [
      ['Health and Safety Policy', '/health-safety'],
      ['Privacy Policy', '/privacy'],
      ['Site Map', '/sitemap'],
    ]) {
      await expect(footer.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href!);
    }
    await expect(footer.getByRole('button', { name: /Safe Contractor/ })).toBeVisible();
  });
}

test('home: hero, Learn More, fleet image, three highlights, three testimonials and the commitment', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Expert Insurance Repairs');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Minimal Disruption');
  const fleet = page.getByRole('img', { name: /van/ });
  await expect(fleet).toBeVisible();
  await expect(fleet).toHaveAttribute('fetchpriority', 'high');
  // The drawing travels inside the HTML, so it paints with the document.
  expect(await fleet.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
  expect(await fleet.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  for (const title of ['30+ Years', 'Insurance Specialists', 'Right First Time']) {
    await expect(page.getByRole('heading', { level: 3, name: title })).toBeVisible();
  }
  const quotes = page.locator('figure blockquote');
  await expect(quotes).toHaveCount(3);
  for (const testimonial of testimonials) {
    const figure = page.locator('figure', { hasText: testimonial.customerName });
    await expect(figure).toContainText(testimonial.quote);
    await expect(figure).toContainText(testimonial.town);
  }
  await expect(page.getByRole('heading', { name: 'Our commitment to you' })).toBeVisible();
  await page.getByRole('link', { name: /^Learn More/ }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Us');
});

test('about: description, how a claim works and the ten accreditations in a 2/3/5 column grid', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByText(/insurance repair and home maintenance contractor based in Cumbernauld/)).toBeVisible();
  const claim = page.locator('section', { has: page.getByRole('heading', { name: 'How a claim works' }) });
  await expect(claim).toContainText('appoints us, either directly or through their repair network');
  await expect(claim).toContainText(
    'inspects and photographs the damage, establishes the cause and prepares a detailed reinstatement schedule',
  );
  await expect(claim).toContainText('If the claim is accepted, your insurer pays the repair costs, less any excess on your policy');

  const grid = page.getByTestId('accreditation-grid');
  const names = [
    'CRB Checked',
    'SEPA Approved',
    'Select Contractor',
    'TrustMark',
    'CGF Approved',
    'ConstructionLine',
    'FMB Member',
    'Safe Contractor',
    'Gas Safe',
    'CHAS',
  ];
  await expect(grid.getByRole('button')).toHaveText(names);
  const columns = async () => (await grid.evaluate((element) => getComputedStyle(element).gridTemplateColumns)).split(' ').length;
  for (const [width, expected] of [
    [375, 2],
    [700, 3],
    [1280, 5],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    expect(await columns()).toBe(expected);
  }
});

test('services: the six cards with their exact titles, a description each and a link to the service’s own page', async ({ page }) => {
  await page.goto('/services');
  const titles = [
    'Water Damage Restoration',
    'Storm & Weather Damage',
    'Fire & Smoke Damage',
    'Vandalism & Malicious Damage',
    'Impact & Accidental Damage',
    'Insurance Claims Support',
  ];
  await expect(page.locator('main li h2')).toHaveText(titles);
  for (const title of titles) {
    const card = page.locator('li', { has: page.getByRole('heading', { name: title, exact: true }) });
    expect((await card.locator('p').first().innerText()).length).toBeGreaterThan(120);
  }
  for (const service of services) {
    await expect(page.getByRole('link', { name: `More about ${service.title}`, exact: true })).toHaveAttribute('href', service.page.path);
  }
});

test('home: "What we repair" links each service to its own page', async ({ page }) => {
  await page.goto('/');
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'What we repair' }) });
  for (const service of services) {
    await expect(section.getByRole('link', { name: service.title })).toHaveAttribute('href', service.page.path);
  }
});

test('a service page: what it covers, the steps, the first hours, the claim, the area, and a call and an enquiry button', async ({
  page,
}) => {
  await page.goto('/services/water-damage');
  const main = page.getByRole('main');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem')).toHaveText([
    'Home /',
    'Services /',
    'Water Damage Restoration',
  ]);
  await expect(main.getByRole('heading', { level: 2 })).toHaveText([
    'What this covers',
    'What the work includes',
    'What we do, step by step',
    'In the first hours: what to do',
    'Working with your insurance claim',
    'Tell us what has happened',
  ]);
  await expect(main.getByText('Turn off the water at the stopcock', { exact: false })).toBeVisible();
  await expect(main.getByRole('link', { name: `Call ${business.phone.display}` }).first()).toHaveAttribute(
    'href',
    `tel:${business.phone.e164}`,
  );
  await expect(main.getByRole('link', { name: 'Send an enquiry about this' }).first()).toHaveAttribute(
    'href',
    '/contact?damage=water-damage',
  );
  await page.goto('/services/claims-support');
  await expect(page.getByRole('main').getByRole('link', { name: 'Send an enquiry about this' }).first()).toHaveAttribute(
    'href',
    '/contact?claim=open',
  );
});

test('for insurers: how to instruct, what they receive, the standards marked as placeholders, coverage and the reference', async ({
  page,
}) => {
  await page.goto('/insurers');
  const main = page.getByRole('main');
  for (const heading of [
    'How to instruct us',
    'What you receive',
    'Response standards',
    'Coverage',
    'Your claim number and our reference',
  ]) {
    await expect(main.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
  }
  for (const item of ['Photo reports', 'Reinstatement schedules', 'Completion certificates'])
    await expect(main.getByText(item, { exact: true })).toBeVisible();
  for (const standard of business.forInsurers.responseStandards)
    await expect(main.getByText(standard.detail, { exact: true })).toBeVisible();
  await expect(main.getByTestId('standards-placeholder')).toHaveText(
    'These figures are placeholders until the company confirms its own standards.',
  );
  await expect(main.getByRole('link', { name: 'Instruct us as an insurer' }).first()).toHaveAttribute('href', '/contact?role=insurer');
  await expect(main.getByRole('link', { name: 'Instruct us as a loss adjuster' }).first()).toHaveAttribute(
    'href',
    '/contact?role=loss-adjuster',
  );
  await page.goto('/about');
  await expect(page.getByRole('main').getByRole('link', { name: 'For insurers and loss adjusters: how to instruct us' })).toHaveAttribute(
    'href',
    '/insurers',
  );
});

test('health and safety: the text, the policy PDF in a new tab and the four commitments', async ({ page, request }) => {
  await page.goto('/health-safety');
  const pdfLink = page.getByRole('link', { name: /Health and Safety Policy \(PDF\)/ });
  await expect(pdfLink).toHaveAttribute('target', '_blank');
  await expect(pdfLink).toHaveAttribute('rel', 'noopener noreferrer');
  const href = await pdfLink.getAttribute('href');
  const pdf = await request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  const commitments = page.locator('section', { has: page.getByRole('heading', { name: 'Our safety commitments' }) }).locator('h3');
  await expect(commitments).toHaveText([
    'Personal protective equipment',
    'Regular training',
    'Risk assessments',
    'Safe Contractor accreditation',
  ]);
});

test('privacy: the five sections and the £10 data-request payment', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.locator('main h2')).toHaveText([
    'Who we are',
    'What information we collect',
    'What we do with your information',
    'Your Rights',
    'Other Websites',
  ]);
  const rights = page.locator('section#your-rights');
  await expect(rights).toContainText('write to us at the address above, enclosing an administration payment of £10');
});

test('sitemap: page links, the grouped service lists and the contact details', async ({ page }) => {
  await page.goto('/sitemap');
  const pages = page.locator('section', { has: page.getByRole('heading', { name: 'Pages' }) });
  for (const [label, href] of [
    ['Home', '/'],
    ['About Us', '/about'],
    ['Services', '/services'],
    ['Contact', '/contact'],
    ['Where’s my repair?', '/track'],
    ['Health & Safety Policy', '/health-safety'],
    ['Privacy Policy', '/privacy'],
    ['For Insurers and Loss Adjusters', '/insurers'],
  ]) {
    await expect(pages.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href!);
  }
  await expect(page.locator('main h3')).toHaveText(['Our service pages', 'Restoration', 'Building', 'Specialist']);
  for (const service of services) {
    await expect(page.getByRole('main').getByRole('link', { name: service.title, exact: true })).toHaveAttribute('href', service.page.path);
  }
  for (const group of serviceGroups) {
    for (const item of group.items) await expect(page.locator('main').getByText(item, { exact: true })).toBeVisible();
  }
  const contact = page.locator('section', { has: page.getByRole('heading', { name: 'Contact details' }) });
  await expect(contact.getByRole('link', { name: business.phone.display })).toHaveAttribute('href', `tel:${business.phone.e164}`);
  await expect(contact.getByRole('link', { name: business.email })).toHaveAttribute('href', `mailto:${business.email}`);
  await expect(contact.locator('address')).toHaveText(business.address.lines.join(''));
});

test('contact and gallery frames show their headings and the contact details', async ({ page }) => {
  await page.goto('/contact');
  const main = page.locator('main');
  await expect(main.locator('address')).toHaveText(business.address.lines.join(''));
  await expect(main.getByRole('link', { name: business.phone.display })).toHaveAttribute('href', `tel:${business.phone.e164}`);
  await expect(main.getByRole('link', { name: business.email })).toHaveAttribute('href', `mailto:${business.email}`);
  await expect(main).toContainText(business.serviceAreaSummary);
  await page.goto('/gallery');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gallery');
});

test('an unknown route answers 404 with a helpful page in the site layout', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("Sorry, we can't find that page");
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  const main = page.locator('main');
  await expect(main.getByRole('link', { name: /Home page/ })).toHaveAttribute('href', '/');
  await expect(main.getByRole('link', { name: /Our services/ })).toHaveAttribute('href', '/services');
  await expect(main.getByRole('link', { name: /Contact us/ })).toHaveAttribute('href', '/contact');
  await expect(main.getByRole('link', { name: business.phone.display })).toHaveAttribute('href', `tel:${business.phone.e164}`);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});

test('every accreditation logo and the footer badge image load', async ({ page }) => {
  await page.goto('/about');
  const images = page.locator('img');
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }
  expect(await images.count()).toBeGreaterThanOrEqual(accreditations.length + 2);
});
