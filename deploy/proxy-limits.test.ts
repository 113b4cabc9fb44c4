// The reverse proxies' files in deploy/ cannot import lib/enquiry-rules.mjs, so they write the largest
// body again, rounded up to whole MiB (nginx's `m` and Caddy's `MiB` are both 1,048,576 bytes). This
// holds every such figure to the rule: never below the largest enquiry (the proxy would refuse one the
// site takes), never a whole MiB or more above it (the smallest whole-MiB figure at or above it). And it
// holds the paths that get it to the site's own list of upload paths (UPLOAD_PATHS, by which server.mjs
// lets a body in by its upload gate): each proxy gives every one of them the largest body, and no other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGEST_BODY_BYTES } from '@/lib/enquiry-rules.mjs';
import { bodyDeadlineMs } from '@/server/edge/server-limits.mjs';
import { TOKEN_PATH_PREFIXES } from '@/lib/claim-paths.mjs';
import { UPLOAD_PATHS, uploadPathOf, uploadPathRegExp, type UploadPath } from '@/server/edge/upload-gate.mjs';

const MIB = 1024 * 1024;
/** The figure each proxy must give an upload: the largest body rounded up to whole MiB. */
const UPLOAD_LIMIT = Math.ceil(LARGEST_BODY_BYTES / MIB) * MIB;

/**
 * nginx's location for an upload path: exact (`=`), or for a path with a segment in it the site's own
 * regular expression (`~`), which nginx tries after its prefix locations unless one of them is `^~`.
 */
const nginxLocation = (upload: UploadPath) =>
  upload.match === 'exact' ? `location = ${upload.path}` : `location ~ ${uploadPathRegExp(upload)}`;
/** Caddy's path pattern for an upload path: the path, its `*` (a segment) read by Caddy as a glob. */
const caddyPattern = ({ path: route }: UploadPath) => route;

/**
 * Request paths each proxy must treat as uploads (every upload path; a segment filled with a claim's
 * reference) and as not (the pages and endpoints next to them: a claim's status and staff pages, a
 * path longer or shorter than the photos', the signed links, the old address with a token).
 */
const SAMPLE_TOKEN = '12.aZ09-_bcdefghijklmnopqrstuvwxyzAB';
const SAMPLE_REFERENCES = ['HC-ABC-DEF', 'HC-2K7-Q9M'];
const UPLOAD_SAMPLES = UPLOAD_PATHS.flatMap(({ path: route, match }) =>
  match === 'exact' ? [route] : SAMPLE_REFERENCES.map((reference) => route.replace('*', reference)),
);
const OTHER_SAMPLES = [
  '/',
  '/contact/sent',
  '/api/contact/extra',
  '/contactus',
  '/track',
  `/track/${SAMPLE_TOKEN}`,
  `/claim-update/${SAMPLE_TOKEN}`,
  '/claims',
  '/claims/HC-ABC-DEF',
  '/claims/HC-ABC-DEF/',
  '/claims/HC-ABC-DEF/update',
  '/claims/HC-ABC-DEF/photos/',
  '/claims/HC-ABC-DEF/photos/extra',
  '/claims/HC-ABC-DEF/photosX',
  '/claims/HC-ABC-DEF/update/photos',
  '/claims/photos',
  `/api/claims/photos/${SAMPLE_TOKEN}`,
  '/api/crm/events',
  '/api/error-logs',
];

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

/**
 * The location nginx chooses for a request path, as nginx does: an exact match; else the longest
 * prefix, unless a regular expression (in the file's order) matches and that prefix is not `^~`.
 */
function nginxLocationOf(locations: string[], requestPath: string): string | undefined {
  const parsed = locations.map((location) => {
    const [, modifier = '', route = ''] = /^location (?:(=|\^~|~\*?) )?(.+)$/.exec(location) ?? [];
    return { location, modifier, route };
  });
  const exact = parsed.find(({ modifier, route }) => modifier === '=' && route === requestPath);
  if (exact) return exact.location;
  const prefix = parsed
    .filter(({ modifier, route }) => (modifier === '' || modifier === '^~') && requestPath.startsWith(route))
    .sort((a, b) => b.route.length - a.route.length)[0];
  if (prefix?.modifier === '^~') return prefix.location;
  const regex = parsed.find(
    ({ modifier, route }) => modifier.startsWith('~') && new RegExp(route, modifier === '~*' ? 'i' : '').test(requestPath),
  );
  return regex?.location ?? prefix?.location;
}

describe('deploy/nginx-site.conf', () => {
  const text = read('nginx-site.conf');
  const directives = nginxDirectives(text);
  const sizes = directives.filter((directive) => directive.name === 'client_max_body_size');
  const locations = [...new Set(directives.flatMap((directive) => directive.blocks.filter((block) => block.startsWith('location '))))];
  const uploadLocations = UPLOAD_PATHS.map(nginxLocation);
  const uploadLocation = (directive: Directive) => uploadLocations.some((location) => directive.blocks.includes(location));
  /** The body limit nginx applies to a request path: its location's, else the server's. */
  const limitOf = (requestPath: string) => {
    const location = nginxLocationOf(locations, requestPath);
    const own = sizes.find((directive) => location !== undefined && directive.blocks.at(-1) === location);
    const server = sizes.find((directive) => directive.blocks.at(-1) === 'server');
    return nginxBytes((own ?? server)?.args[0] ?? '0');
  };

  it('has a location for every upload path, which gives it the largest body, in the smallest whole MiB that holds it', () => {
    const upload = sizes.filter(uploadLocation);
    expect(upload.map((directive) => directive.blocks.at(-1)).sort()).toEqual([...uploadLocations].sort());
    for (const directive of upload) {
      const bytes = nginxBytes(directive.args[0] ?? '');
      expect(bytes, `${directive.blocks.at(-1)}: client_max_body_size ${directive.args[0]}`).toBeGreaterThanOrEqual(LARGEST_BODY_BYTES);
      expect(bytes, `${directive.blocks.at(-1)}: client_max_body_size ${directive.args[0]}`).toBe(UPLOAD_LIMIT);
    }
  });

  it('treats every upload path alike: the same directives in each of their locations', () => {
    const settings = (location: string) =>
      directives
        .filter((directive) => directive.blocks.at(-1) === location)
        .map((directive) => [directive.name, ...directive.args].join(' '))
        .sort();
    for (const location of uploadLocations) expect(settings(location), location).toEqual(settings(uploadLocations[0]!));
  });

  it('gives the largest body to the requests the site takes uploads on, and to no other', () => {
    for (const requestPath of UPLOAD_SAMPLES) {
      expect(uploadPathOf(requestPath), `the site takes an upload on ${requestPath}`).toBeDefined();
      expect(limitOf(requestPath), requestPath).toBe(UPLOAD_LIMIT);
    }
    for (const requestPath of OTHER_SAMPLES) {
      expect(uploadPathOf(requestPath), `the site takes no upload on ${requestPath}`).toBeUndefined();
      expect(limitOf(requestPath), requestPath).toBeLessThan(LARGEST_BODY_BYTES);
    }
  });

  it('keeps every other body smaller than an upload', () => {
    const others = sizes.filter((directive) => !uploadLocation(directive));
    expect(others.length).toBeGreaterThan(0);
    for (const directive of others) expect(nginxBytes(directive.args[0] ?? '')).toBeLessThan(LARGEST_BODY_BYTES);
  });

  it('quotes the largest body and its limit in bytes as they are', () => {
    expect(text).toContain(LARGEST_BODY_BYTES.toLocaleString('en-GB'));
    expect(text).toContain(UPLOAD_LIMIT.toLocaleString('en-GB'));
  });
});

/**
 * Whether Caddy's `path` matcher with these patterns matches a request path, as Caddy does: case-insensitive;
 * `*` at the end a prefix, at the start a suffix; one inside the path a glob (Go's path.Match: any run of
 * characters but `/`).
 */
function caddyPathMatches(patterns: string[], requestPath: string): boolean {
  const lower = requestPath.toLowerCase();
  return patterns.some((raw) => {
    const pattern = raw.toLowerCase();
    if (pattern.endsWith('*')) return lower.startsWith(pattern.slice(0, -1));
    if (pattern.startsWith('*')) return lower.endsWith(pattern.slice(1));
    if (/[?[\\]/.test(pattern)) throw new Error(`a glob other than * is not read here: ${raw}`);
    const glob = pattern.split('*').map((part) => part.replace(/[.+^${}()|]/g, '\\$&'));
    return new RegExp(`^${glob.join('[^/]*')}$`).test(lower);
  });
}

describe('deploy/Caddyfile', () => {
  const text = read('Caddyfile');
  const directives = caddyDirectives(text);
  const matcher = (name: string) => directives.find((directive) => directive.name === name);
  const uploadPatterns = UPLOAD_PATHS.map(caddyPattern);
  /** Whether a named matcher (`@upload`, `@other`: a path matcher, or its negation) matches a request path. */
  const matches = (name: string, requestPath: string) => {
    const args = matcher(name)?.args ?? [];
    if (args[0] === 'path') return caddyPathMatches(args.slice(1), requestPath);
    if (args[0] === 'not' && args[1] === 'path') return !caddyPathMatches(args.slice(2), requestPath);
    throw new Error(`${name} is not a path matcher: ${args.join(' ')}`);
  };
  const bodyLimits = directives.filter((directive) => directive.name === 'max_size');
  /** The smallest max_size of the request_body blocks whose matcher matches a request path. */
  const limitOf = (requestPath: string) =>
    Math.min(
      ...bodyLimits
        .filter((directive) => matches(directive.blocks.at(-1)!.replace(/^request_body /, ''), requestPath))
        .map((directive) => caddyBytes(directive.args[0] ?? '')),
    );

  it('matches every upload path as @upload, and every other path as @other', () => {
    expect(matcher('@upload')?.args).toEqual(['path', ...uploadPatterns]);
    expect(matcher('@other')?.args).toEqual(['not', 'path', ...uploadPatterns]);
    const sized = (name: string) => directives.filter((directive) => directive.blocks.includes(name) && directive.name !== 'header_regexp');
    expect(sized('@upload_too_large').map((directive) => directive.args)).toEqual([uploadPatterns]);
    expect(sized('@upload_too_large')[0]?.name).toBe('path');
    expect(sized('@other_too_large').map((directive) => [directive.name, ...directive.args])).toEqual([['not', 'path', ...uploadPatterns]]);
  });

  it('gives an upload the largest body, in the smallest whole MiB that holds it, and holds no body whole', () => {
    const upload = bodyLimits.filter((directive) => directive.blocks.includes('request_body @upload'));
    expect(upload).toHaveLength(1);
    for (const directive of upload) {
      const bytes = caddyBytes(directive.args[0] ?? '');
      expect(bytes, `${directive.name} ${directive.args[0]}`).toBeGreaterThanOrEqual(LARGEST_BODY_BYTES);
      expect(bytes, `${directive.name} ${directive.args[0]}`).toBe(UPLOAD_LIMIT);
    }
    for (const directive of bodyLimits.filter((other) => !upload.includes(other)))
      expect(caddyBytes(directive.args[0] ?? ''), `${directive.blocks.at(-1)}: ${directive.name}`).toBeLessThan(LARGEST_BODY_BYTES);
    // Caddy 2.6 buffers a body only in memory, with no limit per visitor: it streams them to the site's upload gate.
    for (const name of ['buffer_requests', 'max_buffer_size', 'request_buffers'])
      expect(directives.filter((directive) => directive.name === name)).toEqual([]);
  });

  it('gives the largest body to the requests the site takes uploads on, and to no other', () => {
    for (const requestPath of UPLOAD_SAMPLES) {
      expect(uploadPathOf(requestPath), `the site takes an upload on ${requestPath}`).toBeDefined();
      expect(limitOf(requestPath), requestPath).toBe(UPLOAD_LIMIT);
    }
    for (const requestPath of OTHER_SAMPLES) {
      expect(uploadPathOf(requestPath), `the site takes no upload on ${requestPath}`).toBeUndefined();
      expect(limitOf(requestPath), requestPath).toBeLessThan(LARGEST_BODY_BYTES);
    }
  });

  it('refuses a declared length at once only above the largest body, and within a MiB of its limit', () => {
    const tooLarge = directives.find((directive) => directive.name === 'header_regexp' && directive.blocks.includes('@upload_too_large'));
    expect(tooLarge?.args[0]).toBe('Content-Length');
    const pattern = new RegExp(tooLarge?.args[1] ?? '$^');
    for (const length of [1, 1200, LARGEST_BODY_BYTES - 1, LARGEST_BODY_BYTES]) {
      expect(pattern.test(String(length)), String(length)).toBe(false);
      expect(pattern.test(`0${length}`), `0${length}`).toBe(false);
    }
    for (const length of [UPLOAD_LIMIT + MIB, 10 * UPLOAD_LIMIT, 10 ** 12]) expect(pattern.test(String(length)), String(length)).toBe(true);
  });

  it('lets a whole request take as long as the largest upload needs at the site’s minimum rate', () => {
    const readBody = directives.find((directive) => directive.name === 'read_body');
    expect(caddyMs(readBody?.args[0] ?? '')).toBeGreaterThanOrEqual(bodyDeadlineMs(LARGEST_BODY_BYTES));
  });

  it('quotes the largest body and its limit in bytes as they are', () => {
    expect(text).toContain(LARGEST_BODY_BYTES.toLocaleString('en-GB'));
    expect(text).toContain(UPLOAD_LIMIT.toLocaleString('en-GB'));
  });
});

/**
 * What each access log writes for a request path and a Referer: the proxy's own rewriting (nginx's `map`,
 * Caddy's `regexp` filter, Go's syntax: `(?i)` and `${1}`), applied here with JavaScript's.
 */
const LOGGED_SAMPLES = [
  // The site's own list: a path added there and not to the proxies' patterns fails here.
  ...TOKEN_PATH_PREFIXES.flatMap((prefix) => [
    [`${prefix}${SAMPLE_TOKEN}`, `${prefix}[token]`],
    [`${prefix}${SAMPLE_TOKEN}?from=email`, `${prefix}[token]?from=email`],
    [`${prefix.toUpperCase()}${SAMPLE_TOKEN}/`, `${prefix.toUpperCase()}[token]/`],
  ]),
  ['/', '/'],
  ['/track', '/track'],
  ['/claims/HC-ABC-DEF', '/claims/HC-ABC-DEF'],
  ['/contact?from=home', '/contact?from=home'],
];

function expectTokensCut(rewrite: (value: string) => string, referer: (value: string) => string) {
  for (const [sent, logged] of LOGGED_SAMPLES) {
    expect(rewrite(sent!), sent).toBe(logged);
    expect(referer(`https://www.example.com${sent}`), sent).toBe(`https://www.example.com${logged}`);
  }
}

describe('the access logs', () => {
  it('nginx logs a claim link with its token cut, in the path and the Referer', () => {
    const directives = nginxDirectives(read('nginx-site.conf'));
    const rule = (variable: string) => {
      const entry = directives.find((directive) => directive.blocks.at(-1)?.startsWith(`map ${variable} `) && directive.name !== 'default');
      const [, flags = '', pattern = ''] = /^"~(\*?)(.*)"$/.exec(entry?.name ?? '') ?? [];
      const replacement = /^"(.*)"$/.exec(entry?.args[0] ?? '')?.[1] ?? '';
      return (value: string) => value.replace(new RegExp(pattern, flags ? 'i' : ''), replacement);
    };
    expectTokensCut(rule('$request_uri'), rule('$http_referer'));
    const logFormat = directives.find((directive) => directive.name === 'log_format');
    expect(logFormat?.args.join(' ')).toContain('$homecare_logged_uri');
    expect(logFormat?.args.join(' ')).not.toMatch(/\$request\b|\$request_uri|\$uri|\$http_referer/);
    const logs = directives.filter((directive) => directive.name === 'access_log');
    expect(logs.map((directive) => directive.blocks.at(-1))).toEqual(['server', 'server']);
    for (const directive of logs) expect(directive.args[1]).toBe(logFormat?.args[0]);
  });

  it('Caddy logs a claim link with its token cut, in the path and the Referer, in its access log and its own', () => {
    const directives = caddyDirectives(read('Caddyfile'));
    const logs = directives.filter((directive) => directive.name === 'log').map((directive) => directive.blocks);
    expect(logs).toEqual([[''], ['www.example.com']]);
    const rules = (field: string) =>
      directives
        .filter((directive) => directive.name === field && directive.blocks.at(-1) === 'fields')
        .map((entry) => {
          expect(entry.args[0], field).toBe('regexp');
          const pattern = (entry.args[1] ?? '').replace(/^\(\?i\)/, '');
          const replacement = (entry.args[2] ?? '').replace(/\$\{(\d+)\}/g, '$$$1');
          return (value: string) => value.replace(new RegExp(pattern, 'i'), replacement);
        });
    const [uri, referer] = [rules('request>uri'), rules('request>headers>Referer')];
    expect([uri.length, referer.length]).toEqual([logs.length, logs.length]);
    uri.forEach((rewrite, index) => expectTokensCut(rewrite, referer[index]!));
  });
});
