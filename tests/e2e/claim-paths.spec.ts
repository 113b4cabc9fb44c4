import { deadLinkText, statusText } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { companyNotification, linkPath } from './support/claims';
import { expect, test, type APIRequestContext } from './support/test';
import { testSiteUrl } from './test-env';

// The paths of a claim with a reference that names none (a stray `%`, a broken escape, a dot segment,
// a very long one) answer 404, never 500: the pages with the dead link's words, the documents and the
// posts plainly. And a signed link that does not verify changes no cookie the visitor has.

const MALFORMED = ['%25', '%E0%A4%A', '%FF', '..%2F', 'A'.repeat(200)];

/** A multipart post as the status page's forms send it, from the site itself. */
const post = (request: APIRequestContext, path: string, multipart: Record<string, string>) =>
  request.post(path, { headers: { Origin: testSiteUrl }, multipart });

for (const reference of MALFORMED) {
  test(`the claim paths of the reference "${reference.slice(0, 20)}" answer 404, never 500`, async ({ request }) => {
    for (const [path, words] of [
      [`/claims/${reference}`, deadLinkText.status],
      [`/claims/${reference}/update`, deadLinkText.update],
    ] as const) {
      const answer = await request.get(path);
      expect(answer.status(), path).toBe(404);
      const html = await answer.text();
      expect(html, path).toContain('data-testid="claim-link-refused"');
      expect(html, path).toContain(deadLinkText.title);
      expect(html, path).toContain(words);
      expect(answer.headers()['cache-control'], path).toContain('no-store');
    }
    for (const document of ['certificate.pdf', 'electricity.pdf']) {
      const answer = await request.get(`/claims/${reference}/${document}`);
      expect(answer.status(), document).toBe(404);
    }
    // A post with a dot segment is turned away before Next reads it (400); any other reaches the route.
    const posted = reference === '..%2F' ? 400 : 404;
    expect((await post(request, `/claims/${reference}/electricity.pdf`, { rate: '0.25' })).status()).toBe(posted);
    expect((await post(request, `/claims/${reference}/photos`, { note: 'x' })).status()).toBe(posted);
    for (const link of ['track', 'claim-update', 'verify']) expect((await request.get(`/${link}/${reference}`)).status(), link).toBe(404);
  });
}

test('in a browser without JavaScript, a dead link is a 404 page that says the link no longer works and how to look the claim up', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const answer = await page.goto('/claims/%25');
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: deadLinkText.title })).toBeVisible();
  await expect(page.getByTestId('claim-link-refused')).toContainText(deadLinkText.status);
  await expect(page.getByRole('link', { name: deadLinkText.lookUp })).toHaveAttribute('href', '/track');
  await context.close();
});

/** The same claim's token with another MAC of the right shape. */
const forged = (path: string) => {
  const [prefix, token] = [path.slice(0, path.lastIndexOf('/') + 1), path.slice(path.lastIndexOf('/') + 1)];
  const [id, mac] = token.split('.') as [string, string];
  return `${prefix}${id}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
};

test('a link with a wrong MAC sets no cookie and clears none: the pages the visitor has open still open', async ({ request }) => {
  const unique = `paths-forged-${Date.now()}`;
  const sent = await request.post('/api/contact', {
    headers: { Origin: testSiteUrl },
    data: { name: 'Morag Linkson', email: `${unique}@example.com`, phone: '', subject: `Leak ${unique}`, message: 'Water under the sink.' },
  });
  expect(sent.status()).toBe(201);
  const { reference } = (await sent.json()) as { reference: string };
  const notification = await companyNotification(reference);

  for (const [prefix, page, opens] of [
    ['/track/', `/claims/${reference}`, statusText.heading(reference)],
    ['/claim-update/', `/claims/${reference}/update`, staffPage.forClaim(reference)],
  ] as const) {
    const link = linkPath(notification, prefix);
    const opened = await request.get(link);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['set-cookie']).toMatch(/Max-Age=43200/);
    expect(await (await request.get(page)).text()).toContain(opens);

    const refused = await request.get(forged(link));
    expect(refused.status()).toBe(200);
    expect(refused.headers()['set-cookie'], prefix).toBeUndefined();
    const still = await request.get(page);
    expect(still.status(), page).toBe(200);
    expect(await still.text()).toContain(opens);
  }
});
