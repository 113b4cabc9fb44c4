// The reverse proxies' files in deploy/ cannot import lib/enquiry-rules.mjs, so they write the largest
// body again, rounded up to whole MiB (nginx's `m` and Caddy's `MiB` are both 1,048,576 bytes). This
// holds every such figure to the rule: never below the largest enquiry (the proxy would refuse one the
// site takes), never a whole MiB or more above it (the smallest whole-MiB figure at or above it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGEST_BODY_BYTES } from '@/lib/enquiry-rules.mjs';
import { CONTACT_PAGE_PATH } from '@/server/contact-page-post.mjs';
import { bodyDeadlineMs } from '@/server/server-limits.mjs';

const MIB = 1024 * 1024;
/** The figure each proxy must give an enquiry: the largest body rounded up to whole MiB. */
const ENQUIRY_LIMIT = Math.ceil(LARGEST_BODY_BYTES / MIB) * MIB;
/** The paths that take an enquiry with photos: the route handler (app/api/contact) and the page's form. */
const ENQUIRY_PATHS = ['/api/contact', CONTACT_PAGE_PATH];

type Directive = { name: string; args: string[]; blocks: string[] };

/** nginx's directives with the blocks they sit in (`location = /contact`, …), comments left out. */
function nginxDirectives(text: string): Directive[] {
  const directives: Directive[] = [];
  const blocks: string[] = [];
  let statement = '';
  for (const char of text.replace(/#[^\n]*/g, '')) {
    if (char === '{') blocks.push(statement.trim().replace(/\s+/g, ' '));
    else if (char === '}') blocks.pop();
    else if (char === ';') {
      const [name = '', ...args] = statement.trim().split(/\s+/);
      directives.push({ name, args, blocks: [...blocks] });
    } else {
      statement += char;
      continue;
    }
    statement = '';
  }
  return directives;
}

/** Caddy's directives, one a line, with the blocks they sit in (`request_body @enquiry`, …). */
function caddyDirectives(text: string): Directive[] {
  const directives: Directive[] = [];
  const blocks: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    if (line === '}') {
      blocks.pop();
      continue;
    }
    const opens = line.endsWith('{');
    const [name = '', ...args] = line.replace(/\{$/, '').trim().split(/\s+/);
    directives.push({ name, args, blocks: [...blocks] });
    if (opens) blocks.push([name, ...args].join(' '));
  }
  return directives;
}

/** An nginx size (`58m`, `128k`, `1024`) in bytes: k, m and g are KiB, MiB and GiB. */
function nginxBytes(size: string): number {
  const match = /^(\d+)([kmg]?)$/i.exec(size);
  if (!match) throw new Error(`not an nginx size: ${size}`);
  return Number(match[1]) * 1024 ** ' kmg'.indexOf((match[2] || ' ').toLowerCase());
}

/** A Caddy size (`58MiB`, `1MB`, `512KiB`) in bytes, as Caddy reads it (go-humanize): KB is 1,000, KiB 1,024. */
function caddyBytes(size: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(i?)b?$/i.exec(size);
  if (!match) throw new Error(`not a Caddy size: ${size}`);
  const power = ' kmgt'.indexOf((match[2] || ' ').toLowerCase());
  return Math.round(Number(match[1]) * (match[3] ? 1024 : 1000) ** power);
}

/** A Caddy (Go) duration in one unit (`65m`, `10s`) in milliseconds. */
function caddyMs(duration: string): number {
  const match = /^(\d+)(ms|[smh])$/.exec(duration);
  if (!match) throw new Error(`not a duration in one unit: ${duration}`);
  return Number(match[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
}

const read = (file: string) => readFileSync(path.join(__dirname, file), 'utf8');

describe('the units the proxies write sizes in', () => {
  it('reads nginx and Caddy sizes as they do', () => {
    expect(nginxBytes('58m')).toBe(58 * MIB);
    expect(nginxBytes('58M')).toBe(58 * MIB);
    expect(nginxBytes('128k')).toBe(128 * 1024);
    expect(nginxBytes('1g')).toBe(1024 * MIB);
    expect(nginxBytes('60098304')).toBe(60_098_304);
    expect(caddyBytes('58MiB')).toBe(58 * MIB);
    expect(caddyBytes('58MB')).toBe(58_000_000);
    expect(caddyBytes('1KiB')).toBe(1024);
    expect(caddyBytes('60098304')).toBe(60_098_304);
  });
});

describe('deploy/nginx-site.conf', () => {
  const text = read('nginx-site.conf');
  const sizes = nginxDirectives(text).filter((directive) => directive.name === 'client_max_body_size');
  const enquiryLocation = (directive: Directive) => ENQUIRY_PATHS.some((route) => directive.blocks.includes(`location = ${route}`));

  it('gives every enquiry path the largest body, in the smallest whole MiB that holds it', () => {
    const enquiry = sizes.filter(enquiryLocation);
    expect(enquiry.map((directive) => directive.blocks.at(-1)).sort()).toEqual(ENQUIRY_PATHS.map((route) => `location = ${route}`).sort());
    for (const directive of enquiry) {
      const bytes = nginxBytes(directive.args[0] ?? '');
      expect(bytes, `${directive.blocks.at(-1)}: client_max_body_size ${directive.args[0]}`).toBeGreaterThanOrEqual(LARGEST_BODY_BYTES);
      expect(bytes, `${directive.blocks.at(-1)}: client_max_body_size ${directive.args[0]}`).toBe(ENQUIRY_LIMIT);
    }
  });

  it('keeps every other body smaller than an enquiry', () => {
    const others = sizes.filter((directive) => !enquiryLocation(directive));
    expect(others.length).toBeGreaterThan(0);
    for (const directive of others) expect(nginxBytes(directive.args[0] ?? '')).toBeLessThan(LARGEST_BODY_BYTES);
  });

  it('quotes the largest body and its limit in bytes as they are', () => {
    expect(text).toContain(LARGEST_BODY_BYTES.toLocaleString('en-GB'));
    expect(text).toContain(ENQUIRY_LIMIT.toLocaleString('en-GB'));
  });
});

describe('deploy/Caddyfile', () => {
  const text = read('Caddyfile');
  const directives = caddyDirectives(text);
  const matcher = (name: string) => directives.find((directive) => directive.name === name);

  it('matches the enquiry paths as @enquiry', () => {
    expect(matcher('@enquiry')?.args.slice(1).sort()).toEqual([...ENQUIRY_PATHS].sort());
    expect(matcher('@enquiry')?.args[0]).toBe('path');
  });

  it('gives an enquiry the largest body, in the smallest whole MiB that holds it, and buffers that much', () => {
    const sizes = directives.filter((directive) => directive.name === 'max_size' || directive.name === 'max_buffer_size');
    const enquiry = sizes.filter((directive) => directive.name === 'max_buffer_size' || directive.blocks.includes('request_body @enquiry'));
    expect(enquiry.map((directive) => directive.name).sort()).toEqual(['max_buffer_size', 'max_size']);
    for (const directive of enquiry) {
      const bytes = caddyBytes(directive.args[0] ?? '');
      expect(bytes, `${directive.name} ${directive.args[0]}`).toBeGreaterThanOrEqual(LARGEST_BODY_BYTES);
      expect(bytes, `${directive.name} ${directive.args[0]}`).toBe(ENQUIRY_LIMIT);
    }
    for (const directive of sizes.filter((other) => !enquiry.includes(other)))
      expect(caddyBytes(directive.args[0] ?? ''), `${directive.blocks.at(-1)}: ${directive.name}`).toBeLessThan(LARGEST_BODY_BYTES);
  });

  it('refuses a declared length at once only above the largest body, and within a MiB of its limit', () => {
    const tooLarge = directives.find((directive) => directive.name === 'header_regexp' && directive.blocks.includes('@enquiry_too_large'));
    expect(tooLarge?.args[0]).toBe('Content-Length');
    const pattern = new RegExp(tooLarge?.args[1] ?? '$^');
    for (const length of [1, 1200, LARGEST_BODY_BYTES - 1, LARGEST_BODY_BYTES]) {
      expect(pattern.test(String(length)), String(length)).toBe(false);
      expect(pattern.test(`0${length}`), `0${length}`).toBe(false);
    }
    for (const length of [ENQUIRY_LIMIT + MIB, 10 * ENQUIRY_LIMIT, 10 ** 12])
      expect(pattern.test(String(length)), String(length)).toBe(true);
  });

  it('lets a whole request take as long as the largest enquiry needs at the site’s minimum rate', () => {
    const readBody = directives.find((directive) => directive.name === 'read_body');
    expect(caddyMs(readBody?.args[0] ?? '')).toBeGreaterThanOrEqual(bodyDeadlineMs(LARGEST_BODY_BYTES));
  });

  it('quotes the largest body and its limit in bytes as they are', () => {
    expect(text).toContain(LARGEST_BODY_BYTES.toLocaleString('en-GB'));
    expect(text).toContain(ENQUIRY_LIMIT.toLocaleString('en-GB'));
  });
});
