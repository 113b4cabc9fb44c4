import { describe, expect, it } from 'vitest';
import {
  allHashes,
  cameOverHttps,
  contentSecurityPolicy,
  HSTS,
  HTML_CACHE_CONTROL,
  IMMUTABLE_CACHE_CONTROL,
  responseHeaders,
  type CspManifest,
} from './response-headers.mjs';

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
    for (const hash of allHashes(manifest)) expect(policy).toContain(`'${hash}'`);
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
    expect(secure['Strict-Transport-Security']).toBe(HSTS);
    expect(secure['Content-Security-Policy']).toContain('upgrade-insecure-requests');
  });

  it('trusts X-Forwarded-Proto only behind a trusted proxy', () => {
    const request = { headers: { 'x-forwarded-proto': 'https, http' }, socket: {} } as never;
    expect(cameOverHttps(request, false)).toBe(false);
    expect(cameOverHttps(request, true)).toBe(true);
    expect(cameOverHttps({ headers: {}, socket: { encrypted: true } } as never, false)).toBe(true);
  });

  it('sets cache headers a CDN can keep', () => {
    expect(html('/')['Cache-Control']).toBe(HTML_CACHE_CONTROL);
    expect(
      responseHeaders({
        manifest,
        pathname: '/_next/static/chunks/a.js',
        status: 200,
        contentType: 'application/javascript',
        existingCacheControl: '',
        https: false,
      })['Cache-Control'],
    ).toBe(IMMUTABLE_CACHE_CONTROL);
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
