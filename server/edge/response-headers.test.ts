import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  developmentManifest,
  responseClassWithSiteHeaders,
  cameOverHttps,
  contentSecurityPolicy,
  nonceForRequest,
  responseHeaders,
  SERVICE_WORKER_PATH,
  type CspManifest,
} from './response-headers.mjs';
import { SERVICE_WORKER_URL } from '@/lib/offline/protocol';

const manifest: CspManifest = {
  version: 1,
  pages: { '/': ['sha256-home'], '/contact': ['sha256-contact'], '/_not-found': ['sha256-missing'] },
  crmOrigin: 'https://crm.example.com',
  apiOrigin: '',
  recaptcha: true,
};

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `)) ?? '';

const html = (pathname: string, overrides: Partial<Parameters<typeof responseHeaders>[0]> = {}) =>
  responseHeaders({
    manifest,
    pathname,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    existingCacheControl: 's-maxage=31536000',
    https: false,
    ...overrides,
  });

describe('response headers', () => {
  it("gives each page only its own script hashes, never 'unsafe-inline' or 'unsafe-eval'", () => {
    const scriptSrc = directive(html('/')['Content-Security-Policy']!, 'script-src');
    expect(scriptSrc).toBe("script-src 'self' 'sha256-home' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/");
    expect(directive(html('/about/')['Content-Security-Policy']!, 'script-src')).toContain("'sha256-missing'");
  });

  it('uses every hash for pages the build did not prerender and for error statuses', () => {
    const policy = html('/nope', { status: 404 })['Content-Security-Policy']!;
    for (const hash of ['sha256-contact', 'sha256-home', 'sha256-missing']) expect(policy).toContain(`'${hash}'`);
  });

  it("lists the same origins on every page (client-side navigation keeps the first page's policy), with only the hashes per page", () => {
    const withoutHashes = (policy: string) => policy.replace(/ 'sha256-[^']+'/g, '');
    const policies = ['/', '/contact', '/about', '/nope'].map((page) => html(page)['Content-Security-Policy']!);
    for (const policy of policies) {
      expect(directive(policy, 'script-src')).toContain('https://www.google.com/recaptcha/');
      expect(directive(policy, 'script-src')).toContain('https://www.gstatic.com/recaptcha/');
      expect(directive(policy, 'frame-src')).toBe('frame-src https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/');
      expect(directive(policy, 'connect-src')).toContain('https://www.google.com/recaptcha/');
      for (const name of ['connect-src', 'img-src', 'media-src']) expect(directive(policy, name)).toContain('https://crm.example.com');
      expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
      expect(withoutHashes(policy)).toBe(withoutHashes(policies[0]!));
    }
  });

  it('leaves reCAPTCHA out of every page when the build had no site key', () => {
    const policy = contentSecurityPolicy({ ...manifest, recaptcha: false }, { hashes: [], https: false });
    expect(policy).not.toContain('google');
    expect(directive(policy, 'frame-src')).toBe("frame-src 'none'");
  });

  it('sends HSTS and upgrade-insecure-requests only over HTTPS', () => {
    expect(html('/')['Strict-Transport-Security']).toBeUndefined();
    const secure = html('/', { https: true });
    expect(secure['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
    expect(secure['Content-Security-Policy']).toContain('upgrade-insecure-requests');
  });

  it('trusts X-Forwarded-Proto only behind a trusted proxy', () => {
    const request = { headers: { 'x-forwarded-proto': 'https, http' }, socket: {} } as never;
    expect(cameOverHttps(request, false)).toBe(false);
    expect(cameOverHttps(request, true)).toBe(true);
    expect(cameOverHttps({ headers: {}, socket: { encrypted: true } } as never, false)).toBe(true);
  });

  it('sets cache headers a CDN can keep', () => {
    expect(html('/')['Cache-Control']).toBe('public, max-age=0, must-revalidate');
    expect(
      responseHeaders({
        manifest,
        pathname: '/_next/static/chunks/a.js',
        status: 200,
        contentType: 'application/javascript',
        existingCacheControl: '',
        https: false,
      })['Cache-Control'],
    ).toBe('public, max-age=31536000, immutable');
    const api = (existing: string) =>
      responseHeaders({
        manifest,
        pathname: '/api/error-logs',
        status: 201,
        contentType: 'application/json',
        existingCacheControl: existing,
        https: false,
      });
    expect(api('')['Cache-Control']).toBe('no-store');
    expect(api('public, no-cache')['Cache-Control']).toBe('public, no-cache');
    expect(api('')['Content-Security-Policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('keeps the pages of a signed claim link out of caches, search engines and other sites’ referrers', () => {
    const token = '12.abcdefghijklmnopqrstuvwxyzABCDEF';
    // The links themselves say no-referrer; the pages by reference post their own forms (under
    // no-referrer the browser would send them with Origin: null) and carry no token.
    for (const [pathname, referrerPolicy] of [
      [`/track/${token}`, 'no-referrer'],
      [`/claim-update/${token}`, 'no-referrer'],
      ['/claims/HC-ABC-DEF', 'same-origin'],
      ['/claims/HC-ABC-DEF/update', 'same-origin'],
    ]) {
      expect(html(pathname!)).toMatchObject({
        'Cache-Control': 'no-store',
        'Referrer-Policy': referrerPolicy,
        'X-Robots-Tag': 'noindex, nofollow',
      });
      expect(html(pathname!, { status: 404 })['Cache-Control']).toBe('no-store');
    }
    // The look-up itself is an ordinary page.
    expect(html('/track')).toMatchObject({
      'Cache-Control': 'public, max-age=0, must-revalidate',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    expect(html('/track')['X-Robots-Tag']).toBeUndefined();
  });

  it('keeps a signed photo link out of search engines and other sites’ referrers, with the route’s own cache rule', () => {
    const photo = (pathname: string, status = 200, contentType = 'image/jpeg', existingCacheControl = 'private, no-store') =>
      responseHeaders({ manifest, pathname, status, contentType, existingCacheControl, https: true });
    const link = '/api/enquiry-photos/12.1.1767225600.abcdefghijklmnopqrstuvwxyzABCDEF';
    expect(photo(link)).toMatchObject({
      'Cache-Control': 'private, no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex, nofollow',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    });
    expect(photo(link, 404, 'text/plain; charset=utf-8', '')).toMatchObject({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    expect(photo('/api/contact', 201, 'application/json', '')).toMatchObject({ 'Referrer-Policy': 'strict-origin-when-cross-origin' });
    expect(photo('/api/contact', 201, 'application/json', '')['X-Robots-Tag']).toBeUndefined();
  });
});

describe('the service worker', () => {
  const worker = (pathname: string) =>
    responseHeaders({
      manifest,
      pathname,
      status: 200,
      contentType: 'text/javascript; charset=utf-8',
      existingCacheControl: 'no-cache',
      https: false,
    });

  it('runs under a policy that lets it reach the site and nothing else, and is checked for updates on every load', () => {
    expect(SERVICE_WORKER_PATH).toBe(SERVICE_WORKER_URL);
    const headers = worker(SERVICE_WORKER_URL);
    expect(headers['Content-Security-Policy']).toBe("default-src 'none'; connect-src 'self'; frame-ancestors 'none'");
    expect(headers['Cache-Control']).toBe('no-cache');
    expect(worker(`${SERVICE_WORKER_URL}/next`)['Content-Security-Policy']).toBe(
      "default-src 'none'; connect-src 'self'; frame-ancestors 'none'",
    );
    expect(worker('/other.js')['Content-Security-Policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('304 responses', () => {
  it('carry no policy and no cache rule, so the stored page keeps its own', () => {
    const headers = responseHeaders({
      manifest,
      pathname: '/',
      status: 304,
      contentType: '',
      existingCacheControl: 's-maxage=31536000',
      https: false,
    });
    expect(headers['Content-Security-Policy']).toBeUndefined();
    expect(headers['Cache-Control']).toBeUndefined();
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('the development server', () => {
  const development = developmentManifest({
    NEXT_PUBLIC_CRM_URL: 'https://crm.example.com/base',
    NEXT_PUBLIC_API_URL: '',
    NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 'site-key',
  });

  it("lists the build's origins and allows the inline scripts and eval `next dev` needs", () => {
    const policy = contentSecurityPolicy(development, { hashes: [], https: false });
    expect(directive(policy, 'script-src')).toBe(
      "script-src 'self' 'unsafe-inline' 'unsafe-eval' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/",
    );
    expect(directive(policy, 'connect-src')).toContain('https://crm.example.com');
    expect(directive(policy, 'img-src')).toContain('https://crm.example.com');
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
  });

  it('otherwise sends exactly the policy a build sends', () => {
    const built: CspManifest = { version: 1, pages: {}, crmOrigin: 'https://crm.example.com', apiOrigin: '', recaptcha: true };
    const withoutScripts = (policy: string) =>
      policy
        .split('; ')
        .filter((part) => !part.startsWith('script-src'))
        .join('; ');
    expect(withoutScripts(contentSecurityPolicy(development, { hashes: [], https: true }))).toBe(
      withoutScripts(contentSecurityPolicy(built, { hashes: ['sha256-x'], https: true })),
    );
  });
});

describe('responseClassWithSiteHeaders (http.createServer({ ServerResponse }))', () => {
  async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void) {
    const server = createServer({ ServerResponse: responseClassWithSiteHeaders({ manifest, trustProxy: false }) }, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      get: (pathname: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}${pathname}`, { headers }),
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('sets the headers when the handler calls writeHead with its own headers, and ours win', async () => {
    const site = await serve((request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 's-maxage=31536000', 'X-Powered-By': 'x' });
      response.end('<!doctype html>');
    });
    try {
      const response = await site.get('/contact');
      expect(directive(response.headers.get('content-security-policy')!, 'script-src')).toContain("'sha256-contact'");
      expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-powered-by')).toBeNull();
    } finally {
      await site.close();
    }
  });

  it('sets them when the head is written implicitly by end(), with the status and type the handler chose', async () => {
    const site = await serve((request, response) => {
      response.statusCode = 404;
      response.setHeader('Content-Type', 'application/json');
      response.end('{}');
    });
    try {
      const response = await site.get('/api/missing');
      expect(response.status).toBe(404);
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('cache-control')).toBe('no-store');
    } finally {
      await site.close();
    }
  });

  it('reads the path the client asked for, even if a handler rewrites request.url', async () => {
    const site = await serve((request, response) => {
      request.url = '/rewritten';
      response.setHeader('Content-Type', 'text/html');
      response.end('<!doctype html>');
    });
    try {
      const response = await site.get('/');
      expect(directive(response.headers.get('content-security-policy')!, 'script-src')).toBe(
        "script-src 'self' 'sha256-home' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/",
      );
    } finally {
      await site.close();
    }
  });

  it('sends a 304 with neither policy nor cache rule', async () => {
    const site = await serve((request, response) => {
      response.writeHead(304);
      response.end();
    });
    try {
      const response = await site.get('/');
      expect(response.status).toBe(304);
      expect(response.headers.get('content-security-policy')).toBeNull();
      expect(response.headers.get('cache-control')).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await site.close();
    }
  });

  it('gives a page rendered per request (a path not prerendered, or a post) a fresh nonce, in its policy and in the header Next reads it from', async () => {
    const seen: (string | undefined)[] = [];
    const site = await serve((request, response) => {
      seen.push(request.headers['content-security-policy'] as string | undefined);
      response.setHeader('Content-Type', 'text/html; charset=utf-8');
      response.end('<!doctype html>');
    });
    const nonceOf = (policy: string) => /'nonce-([A-Za-z0-9+/]+={0,2})'/.exec(directive(policy, 'script-src'))?.[1];
    try {
      const sent = await site.get('/contact/sent?reference=HC-ABC-DEF', {
        'Content-Security-Policy': "script-src 'nonce-chosen-by-the-client'",
        'Content-Security-Policy-Report-Only': "script-src 'nonce-also-chosen'",
      });
      const again = await site.get('/contact/sent?reference=HC-ABC-DEF');
      const nonce = nonceOf(sent.headers.get('content-security-policy')!);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
      expect(seen[0]).toBe(`script-src 'nonce-${nonce}'`);
      expect(nonceOf(again.headers.get('content-security-policy')!)).not.toBe(nonce);
      // Still every prerendered page's hashes besides.
      expect(directive(sent.headers.get('content-security-policy')!, 'script-src')).toContain("'sha256-contact'");

      const posted = await site.get('/contact', {});
      expect(nonceOf(posted.headers.get('content-security-policy')!)).toBeUndefined();
      expect(seen[2]).toBeUndefined();
      const port = new URL(posted.url).port;
      const post = await fetch(`http://127.0.0.1:${port}/contact`, { method: 'POST', body: 'name=x' });
      expect(seen[3]).toBe(`script-src 'nonce-${nonceOf(post.headers.get('content-security-policy')!)}'`);
    } finally {
      await site.close();
    }
  });

  it('gives a prerendered page no nonce, and drops any policy header the client sent with it', async () => {
    const seen: (string | undefined)[] = [];
    const site = await serve((request, response) => {
      seen.push(request.headers['content-security-policy'] as string | undefined);
      response.setHeader('Content-Type', 'text/html; charset=utf-8');
      response.end('<!doctype html>');
    });
    try {
      const response = await site.get('/', { 'Content-Security-Policy': "script-src 'nonce-chosen-by-the-client'" });
      expect(response.headers.get('content-security-policy')).not.toContain('nonce-');
      expect(seen).toEqual([undefined]);
    } finally {
      await site.close();
    }
  });
});

describe('nonceForRequest', () => {
  it('none for the development server, which allows inline scripts anyway', () => {
    expect(nonceForRequest({ ...manifest, development: true }, '/contact/sent', 'GET')).toBeUndefined();
    expect(nonceForRequest(manifest, '/contact/', 'HEAD')).toBeUndefined();
  });
});
