import { describe, expect, it } from 'vitest';
import { isCrossSiteRequest } from '@/server/edge/request-origin.mjs';

describe('cross-site requests (refused with 403 before the body is read)', () => {
  it('refuses what a browser says comes from another website', () => {
    for (const headers of [
      { host: 'www.example.com', origin: 'https://evil.example' },
      { host: 'www.example.com', origin: 'https://example.com' },
      { host: 'www.example.com', origin: 'https://www.example.com:8443' },
      { host: 'www.example.com', origin: 'null' },
      { host: 'www.example.com', origin: 'null', 'sec-fetch-site': 'same-site' },
      { host: 'www.example.com', origin: 'null', 'sec-fetch-site': 'cross-site' },
      { host: 'www.example.com', origin: 'not a url' },
      { host: 'www.example.com', origin: 'file:///tmp/form.html' },
      { host: 'www.example.com', 'sec-fetch-site': 'cross-site' },
      { host: 'www.example.com', origin: 'https://www.example.com', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://www.example.com' },
    ])
      expect(isCrossSiteRequest(headers, false), JSON.stringify(headers)).toBe(true);
  });

  it('lets same-origin requests and those without the headers (curl, older browsers) through', () => {
    for (const headers of [
      { host: 'www.example.com', origin: 'https://www.example.com' },
      { host: 'www.example.com:443', origin: 'https://www.example.com' },
      { host: 'WWW.Example.com', origin: 'https://www.example.com' },
      { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' },
      { host: 'www.example.com', 'sec-fetch-site': 'same-origin' },
      { host: 'www.example.com', 'sec-fetch-site': 'none' },
      // A page under Referrer-Policy: no-referrer posting to its own site.
      { host: 'www.example.com', origin: 'null', 'sec-fetch-site': 'same-origin' },
      { host: 'www.example.com' },
      {},
    ])
      expect(isCrossSiteRequest(headers, false), JSON.stringify(headers)).toBe(false);
  });

  it('behind a trusted proxy compares with the host it forwards, and only then', () => {
    const behindProxy = { host: '127.0.0.1:3000', 'x-forwarded-host': 'www.example.com', origin: 'https://www.example.com' };
    expect(isCrossSiteRequest(behindProxy, true)).toBe(false);
    expect(isCrossSiteRequest(behindProxy, false)).toBe(true);
    // nginx passes Host through and sets no X-Forwarded-Host.
    expect(isCrossSiteRequest({ host: 'www.example.com', origin: 'https://www.example.com' }, true)).toBe(false);
    expect(isCrossSiteRequest({ ...behindProxy, origin: 'https://evil.example' }, true)).toBe(true);
  });
});
