// Whether a request that changes something comes from another website, judged from what the browser
// says before a byte of the body is read. Plain JavaScript (typed by JSDoc) so server.mjs runs it.

/**
 * @param {string | string[] | undefined} value
 * @returns {string | undefined}
 */
function single(value) {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * True when the browser says the request comes from another website: `Sec-Fetch-Site: cross-site`,
 * `Origin: null` (a sandboxed or opaque origin) unless `Sec-Fetch-Site: same-origin`, or an `Origin` whose host (name and port) differs from
 * the host the request was sent to (`Host`, or with TRUST_PROXY the proxy's `X-Forwarded-Host` when it
 * sets one, as Next's own server-action check reads it). A request with neither header (curl, an older
 * browser) is not cross-site: a browser that sends a cross-site form post sends at least one of them.
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {boolean} trustProxy
 */
export function isCrossSiteRequest(headers, trustProxy) {
  if (single(headers['sec-fetch-site'])?.trim().toLowerCase() === 'cross-site') return true;
  const origin = single(headers.origin)?.trim();
  if (origin === undefined || origin === '') return false;
  // A page under `Referrer-Policy: no-referrer` (a claim's status link) posts with `Origin: null`; its
  // browser still says the post is its own site's.
  if (origin.toLowerCase() === 'null') return single(headers['sec-fetch-site'])?.trim().toLowerCase() !== 'same-origin';
  let from;
  try {
    from = new URL(origin);
  } catch {
    return true;
  }
  if (from.protocol !== 'http:' && from.protocol !== 'https:') return true;
  const forwarded = trustProxy ? single(headers['x-forwarded-host'])?.split(',')[0]?.trim() : undefined;
  const target = forwarded || single(headers.host)?.trim();
  if (!target) return true;
  let to;
  try {
    // Read with the origin's scheme, so `Host: example.com:443` equals `Origin: https://example.com`.
    to = new URL(`${from.protocol}//${target}`);
  } catch {
    return true;
  }
  return from.host !== to.host;
}
