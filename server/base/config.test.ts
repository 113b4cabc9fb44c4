import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILD_TIME_VARIABLES, config, CONFIG_VARIABLES, parseConfig, resetConfig } from '@/server/base/config.mjs';

/** The variables of docs/configuration.md's table (`| \`NAME\` | default | what |`), each with its row. */
function documentedVariables(): Map<string, string> {
  const rows = readFileSync('docs/configuration.md', 'utf8').split('\n');
  return new Map(
    rows.flatMap((row) => {
      const name = /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1];
      return name ? [[name, row] as const] : [];
    }),
  );
}

const envExampleNames = () =>
  readFileSync('.env.example', 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z0-9_]+=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')));

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe('the configuration (one module for every setting)', () => {
  it('has the documented defaults', () => {
    expect(parseConfig({})).toMatchObject({
      siteUrl: 'http://localhost:3000',
      port: 3000,
      hostname: '0.0.0.0',
      distDir: '.next',
      buildTypecheck: true,
      trustedProxies: 0,
      database: { url: 'file:data/site.db' },
      galleryDir: 'data/gallery',
      galleryRefreshSeconds: 60,
      e2eBuild: false,
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
      parseConfig({
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
    expect(parseConfig({ SITE_URL: 'https://www.example.com///', TRUST_PROXY: '2' })).toMatchObject({
      siteUrl: 'https://www.example.com',
      trustedProxies: 2,
    });
  });

  it('reads ENQUIRY_ACKNOWLEDGE as on or off and refuses anything else', () => {
    for (const off of ['0', 'false', 'OFF', ' no ']) expect(parseConfig({ ENQUIRY_ACKNOWLEDGE: off }).enquiries.acknowledge).toBe(false);
    for (const on of ['1', 'true', 'On', 'yes']) expect(parseConfig({ ENQUIRY_ACKNOWLEDGE: on }).enquiries.acknowledge).toBe(true);
    expect(parseConfig({ ENQUIRY_ACKNOWLEDGE: '' }).enquiries.acknowledge).toBe(true);
    expect(() => parseConfig({ ENQUIRY_ACKNOWLEDGE: 'sometimes' })).toThrow(/ENQUIRY_ACKNOWLEDGE: must be on or off/);
  });

  it('accepts .env.example as it stands', () => {
    const env = Object.fromEntries(
      readFileSync('.env.example', 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(() => parseConfig(env)).not.toThrow();
  });

  it('reads the public settings as the browser gets them: trimmed, no trailing slash, a bad one named', () => {
    expect(
      parseConfig({
        NEXT_PUBLIC_CRM_URL: ' https://crm.example.com// ',
        NEXT_PUBLIC_API_URL: '  ',
        NEXT_PUBLIC_RECAPTCHA_SITE_KEY: ' key ',
      }).public,
    ).toEqual({ NEXT_PUBLIC_API_URL: '', NEXT_PUBLIC_CRM_URL: 'https://crm.example.com', NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 'key' });
    expect(() => parseConfig({ NEXT_PUBLIC_API_URL: 'api.example.com' })).toThrow(
      'Invalid environment configuration:\n  NEXT_PUBLIC_API_URL: must be empty or an http(s) URL',
    );
  });

  it('reads the process environment once; resetConfig() makes the next config() read it again', () => {
    vi.stubEnv('CONTACT_RATE_LIMIT', '7');
    resetConfig();
    expect(config().enquiries.rateLimit).toBe(7);
    vi.stubEnv('CONTACT_RATE_LIMIT', '8');
    expect(config().enquiries.rateLimit).toBe(7);
    resetConfig();
    expect(config().enquiries.rateLimit).toBe(8);
  });

  it('is documented: docs/configuration.md and .env.example list every variable it reads, and no other', () => {
    expect([...documentedVariables().keys()].sort()).toEqual([...CONFIG_VARIABLES].sort());
    expect([...envExampleNames()].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('marks as build time in docs/configuration.md exactly the variables a build fixes', () => {
    const buildTime = [...documentedVariables()].filter(([, row]) => row.includes('**build time**')).map(([name]) => name);
    expect(buildTime.sort()).toEqual([...BUILD_TIME_VARIABLES].sort());
  });
});
