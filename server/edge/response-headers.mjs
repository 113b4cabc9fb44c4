// Security and cache headers for every response the production server (server.mjs) sends.
// Plain JavaScript (typed by JSDoc) so server.mjs can run it with no compile step.
// Why the CSP is built from hashes, with a nonce only for pages rendered per request:
// docs/decisions/0006-hash-based-csp-set-by-the-server.md.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import path from 'node:path';
import { trimTrailingSlashes } from '../../lib/trim-characters.mjs';
import { pathHeaders } from './path-rules.mjs';

export const CSP_MANIFEST_FILE = 'csp-manifest.json';

// reCAPTCHA Enterprise's hosts (Google's CSP guidance). Allowed on every page when the build has a site
// key: a policy stays in force for the whole document, and any page can reach the form by a client-side
// link, so the origins a policy lists belong to the build, not to a route (decision 0006).
const RECAPTCHA_SCRIPT = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAME = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];
const RECAPTCHA_CONNECT = ['https://www.google.com/recaptcha/'];

// Everything the site does not use is denied; the gallery viewer's video may autoplay, go full screen
// and picture-in-picture on the site's own origin.
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=(self)',
  'bluetooth=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=(self)',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'sync-xhr=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

const HSTS = 'max-age=63072000; includeSubDomains';
const HTML_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const PUBLIC_FILE_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';
const API_CACHE_CONTROL = 'no-store';

/**
 * What scripts/site/csp-hashes.ts writes into a build folder.
 * @typedef {object} CspManifest
 * @property {1} version
 * @property {Record<string, string[]>} pages Route path → sha256 sources ('sha256-…') of the page's inline scripts.
 * @property {string} crmOrigin Origin of NEXT_PUBLIC_CRM_URL at build time, or ''.
 * @property {string} apiOrigin Origin of NEXT_PUBLIC_API_URL at build time, or ''.
 * @property {boolean} recaptcha Whether NEXT_PUBLIC_RECAPTCHA_SITE_KEY was set at build time.
 * @property {Record<string, string>} [builtWith] The build-time settings the build was made with (server/base/build-settings.mjs).
 * @property {boolean} [development] Set for `npm run dev`: no hashes, inline scripts and eval allowed.
 */
/** @typedef {import('../base/config.mjs').PublicSettings} PublicSettings */

/** @param {string | undefined} value */
function originOf(value) {
  const trimmed = (value ?? '').trim();
  return trimmed ? new URL(trimmed).origin : '';
}

/**
 * The origins a build's policy lists, from the public settings the bundle inlines (server/base/config.mjs).
 * @param {PublicSettings} publicSettings
 * @returns {Pick<CspManifest, 'crmOrigin' | 'apiOrigin' | 'recaptcha'>}
 */
export function buildOrigins(publicSettings) {
  return {
    crmOrigin: originOf(publicSettings.NEXT_PUBLIC_CRM_URL),
    apiOrigin: originOf(publicSettings.NEXT_PUBLIC_API_URL),
    recaptcha: publicSettings.NEXT_PUBLIC_RECAPTCHA_SITE_KEY !== '',
  };
}

/**
 * The manifest `next dev` runs under (`npm run dev`): the same origins and headers as a build, but no
 * hashes, because a development server renders every page per request and React's debugging tools
 * need eval. A missing CRM, API or reCAPTCHA origin still shows up as a violation while developing.
 * @param {PublicSettings} publicSettings
 * @returns {CspManifest}
 */
export function developmentManifest(publicSettings) {
  return { version: 1, pages: {}, ...buildOrigins(publicSettings), development: true };
}

/**
 * Reads the manifest scripts/site/csp-hashes.ts wrote into the build folder; throws if it is missing.
 * @param {string} distDir
 * @returns {CspManifest}
 */
export function loadCspManifest(distDir) {
  const file = path.join(distDir, CSP_MANIFEST_FILE);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run \`tsx scripts/site/csp-hashes.ts\` after \`next build\` (npm run build does both).`);
  }
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  if (manifest?.version !== 1 || typeof manifest.pages !== 'object') throw new Error(`${file} is not a CSP manifest`);
  return manifest;
}

/** @param {string[]} values */
function unique(values) {
  return [...new Set(values.filter(Boolean))];
}

/**
 * The Content-Security-Policy of a document: the hashes of its own inline scripts (or every page's when
 * the route is unknown), and the origins of the whole build, since client-side navigation keeps the
 * first document's policy for every page the visitor goes on to.
 * A page rendered for this request (not prerendered) also carries `nonce`, which Next put on its scripts.
 * @param {CspManifest} manifest
 * @param {{ hashes: string[]; https: boolean; nonce?: string }} options
 */
export function contentSecurityPolicy(manifest, { hashes, https, nonce }) {
  const useRecaptcha = manifest.recaptcha;
  const crm = manifest.crmOrigin ? [manifest.crmOrigin] : [];
  const api = manifest.apiOrigin ? [manifest.apiOrigin] : [];
  /** @type {string[][]} */
  const directives = [
    ['default-src', "'self'"],
    [
      'script-src',
      "'self'",
      ...(manifest.development
        ? ["'unsafe-inline'", "'unsafe-eval'"]
        : [...hashes.map((hash) => `'${hash}'`), ...(nonce ? [`'nonce-${nonce}'`] : [])]),
      ...(useRecaptcha ? RECAPTCHA_SCRIPT : []),
    ],
    // Tailwind ships a stylesheet, but React and the gallery set style attributes; the ban is on script.
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:', ...crm],
    ['media-src', "'self'", 'blob:', ...crm],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...unique([...crm, ...api]), ...(useRecaptcha ? RECAPTCHA_CONNECT : [])],
    ['frame-src', ...(useRecaptcha ? RECAPTCHA_FRAME : ["'none'"])],
    ['worker-src', "'self'"],
    ['manifest-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'", ...api],
    ['frame-ancestors', "'none'"],
  ];
  if (https) directives.push(['upgrade-insecure-requests']);
  return directives.map((parts) => parts.join(' ')).join('; ');
}

/**
 * Every hash of every prerendered page: the policy for routes the build did not prerender.
 * @param {CspManifest} manifest
 */
function allHashes(manifest) {
  return unique(Object.values(manifest.pages).flat()).sort();
}

/**
 * The nonce for a document Next renders for this request, or undefined for a prerendered page (whose
 * scripts the manifest's hashes cover) and for the development server (which allows inline scripts).
 * Per request means a path the build did not prerender (`/contact/sent`), or a post (the contact form
 * sent or refused before the page's JavaScript ran): their inline scripts carry what this request made,
 * a reference or the typed values, so no hash computed at build time can match them.
 * @param {CspManifest} manifest
 * @param {string} pathname
 * @param {string} method
 */
export function nonceForRequest(manifest, pathname, method) {
  if (manifest.development) return undefined;
  const prerendered = manifest.pages[normalisePath(pathname)] !== undefined;
  if (prerendered && (method === 'GET' || method === 'HEAD')) return undefined;
  return randomBytes(18).toString('base64');
}

/**
 * Hands Next the request's nonce the way Next reads one: from the request's own policy header, whose
 * `script-src` nonce it puts on every script of a page it renders. Whatever policy header the client
 * sent is dropped, so only a nonce of ours ever reaches a page.
 * @param {import('node:http').IncomingMessage} request
 * @param {string | undefined} nonce
 */
function giveNextTheNonce(request, nonce) {
  delete request.headers['content-security-policy'];
  delete request.headers['content-security-policy-report-only'];
  if (nonce) request.headers['content-security-policy'] = `script-src 'nonce-${nonce}'`;
}

/** @param {string} pathname */
function normalisePath(pathname) {
  let value = pathname || '/';
  try {
    value = decodeURIComponent(value);
  } catch {
    // Keep the raw path; it simply matches no page.
  }
  if (value.length > 1) value = trimTrailingSlashes(value) || '/';
  return value;
}

/**
 * Whether the request reached us over HTTPS: a TLS socket, or (behind a trusted proxy) X-Forwarded-Proto.
 * @param {Pick<import('node:http').IncomingMessage, 'headers' | 'socket'>} request
 * @param {boolean} trustProxy
 */
export function cameOverHttps(request, trustProxy) {
  if (request.socket && /** @type {{ encrypted?: boolean }} */ (request.socket).encrypted) return true;
  if (!trustProxy) return false;
  const forwarded = request.headers['x-forwarded-proto'];
  const first = String(Array.isArray(forwarded) ? forwarded[0] : (forwarded ?? ''))
    .split(',')[0]
    ?.trim()
    .toLowerCase();
  return first === 'https';
}

/**
 * @param {string} pathname
 * @param {number} status
 * @param {string} contentType
 * @param {string} existing
 */
function cacheControlFor(pathname, status, contentType, existing) {
  if (pathname.startsWith('/_next/static/')) return status === 200 ? IMMUTABLE_CACHE_CONTROL : existing;
  if (pathname.startsWith('/api/')) return existing || API_CACHE_CONTROL;
  if (status !== 200) return existing;
  if (/^text\/(?:html|x-component)/.test(contentType)) return HTML_CACHE_CONTROL;
  // Files from public/ (not content-hashed): Next sends max-age=0; let browsers and CDNs keep them a day.
  if (existing === 'public, max-age=0') return PUBLIC_FILE_CACHE_CONTROL;
  return existing;
}

/**
 * The site's service worker (SERVICE_WORKER_URL in lib/offline/protocol.ts, which a test holds this to);
 * under it, the test build serves the worker's next version.
 */
export const SERVICE_WORKER_PATH = '/service-worker.js';
/**
 * A worker runs under its own script's policy: it loads nothing and runs nothing else, but sends the
 * claims kept on the phone to the site and fetches the pages and assets it keeps.
 */
const SERVICE_WORKER_POLICY = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'";

/**
 * The headers a response gets once its status and type are known. Exported for the unit tests;
 * server.mjs uses responseClassWithSiteHeaders.
 * @param {{ manifest: CspManifest; pathname: string; status: number; contentType: string; existingCacheControl: string; https: boolean; nonce?: string }} input
 * @returns {Record<string, string>}
 */
export function responseHeaders({ manifest, pathname, status, contentType, existingCacheControl, https, nonce }) {
  /** @type {Record<string, string>} */
  const common = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  if (https) common['Strict-Transport-Security'] = HSTS;
  // A 304 has no body and no content type, and a browser merges its headers into the stored response:
  // a policy or cache rule computed here (for "no type") would replace the page's own. Send neither.
  if (status === 304) return common;
  const page = normalisePath(pathname);
  const isHtml = /^text\/html/.test(contentType);
  const pageHashes = status === 200 ? manifest.pages[page] : undefined;
  /** @type {Record<string, string>} */
  const headers = {
    'Content-Security-Policy':
      (page === SERVICE_WORKER_PATH || page.startsWith(`${SERVICE_WORKER_PATH}/`)) && !isHtml
        ? SERVICE_WORKER_POLICY
        : isHtml
          ? contentSecurityPolicy(manifest, {
              hashes: pageHashes ?? allHashes(manifest),
              https,
              nonce,
            })
          : // Not a document (JSON, images, scripts, files): nothing in it may run or load anything.
            /^application\/pdf/.test(contentType)
            ? // Chrome's PDF viewer is itself a plugin document, which default-src 'none' would block.
              "frame-ancestors 'none'"
            : "default-src 'none'; frame-ancestors 'none'",
    ...common,
  };
  const cacheControl = cacheControlFor(pathname, status, contentType, existingCacheControl);
  if (cacheControl) headers['Cache-Control'] = cacheControl;
  // A signed link's token in the address, a page it opened, a photo's link (server/edge/path-rules.mjs).
  Object.assign(headers, pathHeaders(page));
  return headers;
}

/** The path a request asked for, read once when the response is created (before any handler rewrites req.url). */
/** @param {string | undefined} url */
function pathnameOf(url) {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return '/'; // The fallback policy applies.
  }
}

/**
 * A `ServerResponse` subclass for `http.createServer({ ServerResponse })`, Node's documented way to
 * extend responses. Node calls `writeHead` for every response, explicitly or implicitly on the first
 * write or end ("the implicit/mutable headers will be calculated and call this function"), so this is
 * the one moment the final status and content type are known, whatever framework handles the request.
 * Headers passed to writeHead itself are folded in first so ours win. Decision 0006.
 * @param {{ manifest: CspManifest; trustProxy: boolean }} options
 * @returns {typeof ServerResponse<import('node:http').IncomingMessage>}
 */
export function responseClassWithSiteHeaders({ manifest, trustProxy }) {
  return class SiteResponse extends ServerResponse {
    #pathname;
    #https;
    #method;
    #nonce;

    /**
     * @param {import('node:http').IncomingMessage} request
     * @param {unknown[]} rest Node passes its options too.
     */
    constructor(request, ...rest) {
      // @ts-expect-error Node's types list only the request; Node itself passes options after it.
      super(request, ...rest);
      this.#pathname = pathnameOf(request.url);
      this.#https = cameOverHttps(request, trustProxy);
      this.#method = request.method ?? 'GET';
      // The one place that sees both the request Next will render and the response whose policy must
      // allow what it renders.
      this.#nonce = nonceForRequest(manifest, this.#pathname, this.#method);
      giveNextTheNonce(request, this.#nonce);
    }

    /**
     * @param {number} statusCode
     * @param {any[]} rest
     */
    writeHead(statusCode, ...rest) {
      const headersArg = rest.length > 0 && typeof rest[rest.length - 1] === 'object' ? rest.pop() : undefined;
      if (headersArg && !Array.isArray(headersArg)) {
        for (const [name, value] of Object.entries(headersArg)) if (value !== undefined) this.setHeader(name, value);
      } else if (Array.isArray(headersArg)) {
        rest.push(headersArg);
      }
      const cacheControl = this.getHeader('cache-control');
      const headers = responseHeaders({
        manifest,
        pathname: this.#pathname,
        status: statusCode,
        contentType: String(this.getHeader('content-type') ?? ''),
        existingCacheControl: cacheControl === undefined ? '' : String(cacheControl),
        https: this.#https,
        nonce: this.#nonce,
      });
      for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
      // The answer to a post (the contact form sent without JavaScript, rendered again with what was
      // typed) is never kept by a browser or a cache.
      if (this.#method !== 'GET' && this.#method !== 'HEAD') this.setHeader('Cache-Control', API_CACHE_CONTROL);
      if (statusCode === 304) {
        this.removeHeader('content-security-policy');
        this.removeHeader('cache-control');
      }
      this.removeHeader('x-powered-by');
      return super.writeHead(statusCode, ...rest);
    }
  };
}
