import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/server/config.mjs';

describe('the configuration (one module for every setting)', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      siteUrl: 'http://localhost:3000',
      port: 3000,
      hostname: '0.0.0.0',
      distDir: '.next',
      trustedProxies: 0,
      database: { url: 'file:data/site.db' },
      galleryDir: 'data/gallery',
      public: { NEXT_PUBLIC_API_URL: '', NEXT_PUBLIC_CRM_URL: '', NEXT_PUBLIC_RECAPTCHA_SITE_KEY: '' },
      enquiries: {
        rateLimit: 5,
        rateWindowMs: 600_000,
        recaptcha: null,
        smtpUrl: null,
        to: null,
        from: null,
        outboxDir: 'data/outbox',
        pollMs: 5000,
        acknowledge: true,
        photosDir: 'data/enquiry-photos',
        acknowledgementsPerHour: 10,
        photosMaxBytes: 5_000_000_000,
        photosMinFreeBytes: 1_000_000_000,
        maxMessageBytes: 10_000_000,
      },
    });
  });

  it('names every bad variable, server and public, in one error', () => {
    let message = '';
    try {
      loadConfig({
        PORT: 'eighty',
        TRUST_PROXY: 'yes',
        SITE_URL: 'ftp://x',
        NEXT_PUBLIC_CRM_URL: 'crm.example.com',
        SMTP_URL: 'http://mail',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid environment configuration:/);
    for (const name of ['PORT', 'TRUST_PROXY', 'SITE_URL', 'NEXT_PUBLIC_CRM_URL', 'SMTP_URL']) expect(message).toContain(`  ${name}: `);
  });

  it('trims trailing slashes of the site URL and reads the proxies as a number', () => {
    expect(loadConfig({ SITE_URL: 'https://www.example.com///', TRUST_PROXY: '2' })).toMatchObject({
      siteUrl: 'https://www.example.com',
      trustedProxies: 2,
    });
  });

  it('reads ENQUIRY_ACKNOWLEDGE as on or off and refuses anything else', () => {
    for (const off of ['0', 'false', 'OFF', ' no ']) expect(loadConfig({ ENQUIRY_ACKNOWLEDGE: off }).enquiries.acknowledge).toBe(false);
    for (const on of ['1', 'true', 'On', 'yes']) expect(loadConfig({ ENQUIRY_ACKNOWLEDGE: on }).enquiries.acknowledge).toBe(true);
    expect(loadConfig({ ENQUIRY_ACKNOWLEDGE: '' }).enquiries.acknowledge).toBe(true);
    expect(() => loadConfig({ ENQUIRY_ACKNOWLEDGE: 'sometimes' })).toThrow(/ENQUIRY_ACKNOWLEDGE: must be on or off/);
  });

  it('accepts .env.example as it stands', () => {
    const env = Object.fromEntries(
      readFileSync('.env.example', 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(() => loadConfig(env)).not.toThrow();
  });
});
