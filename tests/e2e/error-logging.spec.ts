import { expect, test, type Page, type Request } from './support/test';
import { axe } from './support/axe';
import { errorLogRecordSchema } from '../../server/error-log/record-schema';
import { fakeCrm } from './support/fake-crm';
import { fakeCrmUrl, testBuildEnv } from './test-env';
import { openTestDatabase } from './support/database';

// The faults below exist only in the test build (NEXT_PUBLIC_E2E_FAULTS=1): app/template.e2e.tsx,
// components/testing/layout-fault.e2e.tsx and app/api/e2e-fault/route.e2e.ts (components/testing/e2e-faults.tsx).

/** The error-log requests each page has made to the fake CRM, and how many of them have been answered or failed. */
const errorLogRequests = new WeakMap<Page, { made: number; over: number }>();

function watchErrorLogRequests(page: Page) {
  const seen = { made: 0, over: 0 };
  const isErrorLog = (request: Request) =>
    request.method() === 'POST' && request.url().startsWith(fakeCrmUrl) && new URL(request.url()).pathname === '/api/error-logs';
  page.on('request', (request) => {
    if (isErrorLog(request)) seen.made += 1;
  });
  const over = (request: Request) => {
    if (isErrorLog(request)) seen.over += 1;
  };
  page.on('requestfinished', over);
  page.on('requestfailed', over);
  errorLogRequests.set(page, seen);
}

async function settledErrorLogs(page: Page, expected: number) {
  await expect.poll(async () => (await fakeCrm.errorLogs()).length).toBe(expected);
  // Counted for good once a late duplicate would be here: the logger sends from the handlers the fault
  // runs as it happens, and a zero-delay timer of ours runs after any zero-delay timer it queued (the
  // burst's); after that, every error-log request the page has made must be over.
  await page.evaluate(() => new Promise<void>((done) => setTimeout(() => done(), 0)));
  const requests = errorLogRequests.get(page)!;
  await expect.poll(() => requests.made - requests.over, { message: 'error-log requests still in flight' }).toBe(0);
  const logs = await fakeCrm.errorLogs();
  // Whatever the logger sends, the CRM contract (and the built-in endpoint) accepts.
  for (const entry of logs) expect(errorLogRecordSchema.safeParse(entry).error).toBeUndefined();
  return logs;
}

test.beforeEach(async ({ page }) => {
  await fakeCrm.reset();
  watchErrorLogRequests(page);
});

test('a failed request produces exactly one remote entry with the right fields', async ({ page }) => {
  await fakeCrm.setGallery({ status: 503, body: { success: false, message: 'Down for maintenance' } });
  await page.goto('/?e2e-fault=request');

  const logs = await settledErrorLogs(page, 1);
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatchObject({
    application: 'homecare-web',
    source: 'frontend',
    level: 'error',
    category: 'server',
    statusCode: 503,
    method: 'GET',
    path: '/api/gallery/public',
    message: 'HTTP 503 from GET /api/gallery/public',
    userAgent: expect.stringContaining('Mozilla/5.0'),
    metadata: { url: `${fakeCrmUrl}/api/gallery/public`, page: '/' },
  });
});

test('a burst of errors produces at most 5 remote entries and warns in the console about the rest', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto('/?e2e-fault=burst');

  const logs = await settledErrorLogs(page, 5);
  expect(logs).toHaveLength(5);
  for (const entry of logs) {
    expect(entry).toMatchObject({ application: 'homecare-web', source: 'frontend', level: 'error', category: 'client', path: '/' });
    expect(entry.message).toMatch(/E2E burst fault \d/);
    expect(entry.stack).toEqual(expect.stringContaining('E2E burst fault'));
  }
  // Eight uncaught errors: five sent, three skipped with a warning each.
  await expect.poll(() => warnings.filter((text) => text.includes('rate limit')).length).toBe(3);
});

test('an unhandled rejection is logged once', async ({ page }) => {
  await page.goto('/?e2e-fault=rejection');
  const logs = await settledErrorLogs(page, 1);
  expect(logs[0]).toMatchObject({
    level: 'error',
    category: 'client',
    source: 'frontend',
    message: 'Unhandled promise rejection: E2E unhandled rejection',
    metadata: { handler: 'window.unhandledrejection' },
  });
});

test('after a render failure the fallback appears, logs a critical entry, and Try Again recovers', async ({ page }) => {
  await page.goto('/?e2e-fault=render');

  const fallbackHeading = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
  await expect(fallbackHeading).toBeVisible();
  await expect(page.getByText('Our team has been notified. Please try again later.')).toBeVisible();
  await expect(fallbackHeading).toBeFocused();
  // The header and footer are outside the boundary and stay usable.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' })).toBeVisible();

  const axeResults = await axe(page).analyze();
  expect(axeResults.violations).toEqual([]);

  const logs = await settledErrorLogs(page, 1);
  expect(logs).toHaveLength(1);
  const entry = logs[0]!;
  expect(entry).toMatchObject({
    application: 'homecare-web',
    level: 'critical',
    source: 'error-boundary',
    category: 'client',
    path: '/',
    message: 'Render failure: E2E render fault',
  });
  const metadata = entry.metadata as { componentStack?: unknown };
  expect(typeof metadata.componentStack).toBe('string');
  expect(String(metadata.componentStack)).toMatch(/\n {0,20}at \S+/);
  expect(entry.stack).toEqual(expect.stringContaining('E2E render fault'));

  // The cause goes away (as a transient failure would); Try Again, by keyboard, brings the page back.
  await page.evaluate(() => {
    window.__e2eRenderFaultCleared = true;
  });
  await page.getByRole('button', { name: 'Try Again' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Expert Insurance Repairs');
  await expect(fallbackHeading).toHaveCount(0);
});

test('following a header or footer link leaves the fallback', async ({ page }) => {
  await page.goto('/?e2e-fault=render');
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
});

test('a failure of the root layout itself gets the plain fallback, logged, and Try Again recovers', async ({ page }) => {
  await page.goto('/?e2e-fault=layout-render');
  const heading = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
  await expect(heading).toBeVisible();
  await expect(page.getByText('Our team has been notified. Please try again later.')).toBeVisible();
  // The whole document was replaced: no site header.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  const axeResults = await axe(page).analyze();
  expect(axeResults.violations).toEqual([]);

  const logs = await settledErrorLogs(page, 1);
  expect(logs[0]).toMatchObject({
    level: 'critical',
    source: 'error-boundary',
    category: 'client',
    path: '/',
    message: 'Root layout failure: E2E root layout fault',
    metadata: { boundary: 'root-layout' },
  });

  await page.evaluate(() => {
    window.__e2eRenderFaultCleared = true;
  });
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Expert Insurance Repairs');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('a server-side failure is recorded with source backend in the site database, repeats counted on its one row', async ({ request }) => {
  // The database outlives a test run and other specs fail this route too: count only what this test causes.
  const startedAt = new Date().toISOString();
  const db = openTestDatabase(testBuildEnv.DATABASE_URL!);
  const backendEntries = async () =>
    (
      await db.execute({
        sql: "SELECT * FROM error_logs WHERE source = 'backend' AND message = 'E2E server fault' ORDER BY id",
        args: [],
      })
    ).rows;
  try {
    const before = Number((await backendEntries())[0]?.occurrences ?? 0);
    const response = await request.get('/api/e2e-fault');
    expect(response.status()).toBe(500);

    await expect.poll(async () => (await backendEntries()).map((row) => Number(row.occurrences))).toEqual([before + 1]);
    const [row] = await backendEntries();
    expect(row).toMatchObject({
      application: 'homecare-web',
      level: 'error',
      category: 'server',
      path: '/api/e2e-fault',
      method: 'GET',
      status_code: 500,
      reported_by: 'server',
    });
    expect(String(row!.last_seen_at) >= startedAt).toBe(true);
    expect(JSON.parse(String(row!.metadata))).toMatchObject({ routePath: '/api/e2e-fault', routeType: 'route' });

    // Sixty anonymous failing requests, each from another address and with its own query: no new row, the count goes on.
    const rowsBefore = Number((await db.execute('SELECT count(*) AS n FROM error_logs')).rows[0]!.n);
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request.get(`/api/e2e-fault?attempt=${i}`, { headers: { 'X-Forwarded-For': `192.0.2.${i + 1}`, 'User-Agent': `client ${i}` } }),
      ).map(async (answer) => (await answer).status()),
    );
    expect(new Set(statuses)).toEqual(new Set([500]));
    await expect.poll(async () => (await backendEntries()).map((entry) => Number(entry.occurrences))).toEqual([before + 61]);
    expect(Number((await db.execute('SELECT count(*) AS n FROM error_logs')).rows[0]!.n)).toBe(rowsBefore);
  } finally {
    db.close();
  }
});
