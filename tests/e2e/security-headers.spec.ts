import { expect, test, type APIResponse } from './support/test';
import { routes } from '../../scripts/support/routes';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { fakeCrmUrl, testBuildEnv, testSiteUrl } from './test-env';

// The headers server.mjs (server/edge/response-headers.mjs) sets, read from the running production server.

const PERMISSIONS_DENIED = ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()', 'browsing-topics=()'];

function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

function expectCommonHeaders(response: APIResponse, label: string) {
  const headers = response.headers();
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(headers['cross-origin-opener-policy'], label).toBe('same-origin');
  for (const denied of PERMISSIONS_DENIED) expect(headers['permissions-policy'], label).toContain(denied);
  expect(headers['x-powered-by'], label).toBeUndefined();
  // Served over plain HTTP (and X-Forwarded-Proto is not trusted without TRUST_PROXY): no HSTS.
  expect(headers['strict-transport-security'], label).toBeUndefined();
  const csp = headers['content-security-policy'];
  expect(csp, label).toBeTruthy();
  expect(directives(csp!).get('frame-ancestors'), label).toEqual(["'none'"]);
  return directives(csp!);
}

/** The sha256 sources of the executable inline scripts in an HTML body. */
async function inlineScriptHashes(html: string): Promise<string[]> {
  const { createHash } = await import('node:crypto');
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter((match) => !/\bsrc=/.test(match[1]!) && !/type="application\/(?:ld\+)?json"/.test(match[1]!) && match[2] !== '')
    .map((match) => `'sha256-${createHash('sha256').update(match[2]!).digest('base64')}'`);
}

for (const route of [...routes.map((entry) => entry.path), '/no-such-page']) {
  test(`${route}: a page policy whose script-src is hashes only, and the other security headers`, async ({ request }) => {
    const response = await request.get(route, { headers: { 'x-forwarded-proto': 'https' } });
    expect(response.status()).toBe(route === '/no-such-page' ? 404 : 200);
    const policy = expectCommonHeaders(response, route);
    const scriptSrc = policy.get('script-src')!;
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    // The test build has a reCAPTCHA site key: Google's hosts are allowed on every page, since any page
    // can reach the form by a client-side link and its policy then still applies (decision 0006).
    // A path the build did not prerender may be rendered for this request: a fresh nonce besides the
    // hashes (decision 0006); a prerendered page has none.
    expect(scriptSrc.filter((source) => source.startsWith("'nonce-"))).toHaveLength(route === '/no-such-page' ? 1 : 0);
    expect(scriptSrc.filter((source) => !source.startsWith("'sha256-") && !source.startsWith("'nonce-"))).toEqual([
      "'self'",
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]);
    // Every inline script the page carries is allowed by hash (so it runs), and nothing else is.
    const hashes = await inlineScriptHashes(await response.text());
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(scriptSrc).toContain(hash);
    const hashSources = scriptSrc.filter((source) => source.startsWith("'sha256-"));
    if (route !== '/no-such-page') expect(hashSources.length).toBe(new Set(hashes).size);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    for (const name of ['connect-src', 'img-src', 'media-src']) expect(policy.get(name), name).toContain(fakeCrmUrl);
    expect(policy.get('frame-src')).toEqual(['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/']);
    expect(policy.get('connect-src')).toContain('https://www.google.com/recaptcha/');
    expect(response.headers()['cache-control']).toBe(
      route === '/no-such-page' ? 'private, no-cache, no-store, max-age=0, must-revalidate' : 'public, max-age=0, must-revalidate',
    );
  });
}

test('a conditional request for an unchanged page answers 304', async ({ request }) => {
  const first = await request.get('/about');
  const etag = first.headers()['etag'];
  expect(etag).toBeTruthy();
  const again = await request.get('/about', { headers: { 'if-none-match': etag! } });
  expect(again.status()).toBe(304);
  // Its headers update the stored page's: a policy for a body-less response would replace the page's.
  expect(again.headers()['content-security-policy']).toBeUndefined();
  expect(again.headers()['x-content-type-options']).toBe('nosniff');
});

test('API responses: the security headers, a policy that allows nothing, and no-store unless the route says otherwise', async ({
  request,
}) => {
  const record = { application: 'homecare-web', level: 'info', message: 'header test', source: 'frontend', category: 'client' };
  const calls: [string, APIResponse, number, string | null][] = [
    ['POST /api/error-logs (valid)', await request.post('/api/error-logs', { data: record }), 201, 'no-store'],
    ['POST /api/error-logs (invalid)', await request.post('/api/error-logs', { data: { level: 'nope' } }), 422, 'no-store'],
    ['GET /api/error-logs (wrong method)', await request.get('/api/error-logs'), 405, null],
    // The built-in CRM fakes set their own revalidation (docs/decisions/0003).
    ['GET /api/gallery/public', await request.get('/api/gallery/public'), 200, 'public, no-cache'],
    [
      'GET /api/gallery/image/samples/hallway-floor-sample.webp',
      await request.get('/api/gallery/image/samples/hallway-floor-sample.webp'),
      200,
      null,
    ],
    ['GET /api/e2e-fault', await request.get('/api/e2e-fault'), 500, 'no-store'],
  ];
  for (const [label, response, status, cacheControl] of calls) {
    expect(response.status(), label).toBe(status);
    const policy = expectCommonHeaders(response, label);
    expect(policy.get('default-src'), label).toEqual(["'none'"]);
    if (cacheControl) expect(response.headers()['cache-control'], label).toBe(cacheControl);
    else expect(response.headers()['cache-control'], label).toBeTruthy();
  }
});

test('hashed assets are immutable, public files cached for a day, and every asset carries the headers', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const script = html.match(/<script src="(\/_next\/static\/[^"]+\.js)"/)?.[1];
  // The pages carry their CSS inline; the stylesheet still exists as a hashed asset of the build.
  const stylesheet = readdirSync(path.join(testBuildEnv.NEXT_DIST_DIR!, 'static', 'chunks'))
    .filter((file) => file.endsWith('.css'))
    .map((file) => `/_next/static/chunks/${file}`)[0];
  for (const asset of [script, stylesheet]) {
    expect(asset).toBeTruthy();
    const response = await request.get(asset!);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expectCommonHeaders(response, asset!);
  }
  for (const file of ['/images/fleet-placeholder.svg', '/documents/health-and-safety-policy.pdf']) {
    const response = await request.get(file);
    expect(response.status(), file).toBe(200);
    expect(response.headers()['cache-control'], file).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expectCommonHeaders(response, file);
  }
});

test('a POST to a page is answered 405 before any of its body is sent (nothing buffered)', async () => {
  const { hostname, port } = new URL(testSiteUrl);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      // Headers only: the 10 MB body it announces never comes.
      socket.write(
        `POST /gallery HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/octet-stream\r\nContent-Length: 10000000\r\n\r\n`,
      );
    });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (received.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no answer; got ${JSON.stringify(received)}`)), 5000);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 405 /);
  expect(answer).toMatch(/^allow: GET, HEAD\r$/im);
});
