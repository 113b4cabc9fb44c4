// Who the client is, decided once per request by server.mjs from the socket and, behind proxies the
// operator declared with TRUST_PROXY, from X-Forwarded-For. Route handlers read the result from
// CLIENT_ADDRESS_HEADER with clientAddress(), which server.mjs overwrites on every request, so a
// client cannot set it.
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.
import { isIP } from 'node:net';

export const CLIENT_ADDRESS_HEADER = 'x-homecare-client-address';

/**
 * The client's address. Each proxy appends the address it received the request from to
 * X-Forwarded-For (nginx's $proxy_add_x_forwarded_for, load balancers), so with `hops` proxies the
 * client is `hops` entries from the right of [X-Forwarded-For..., socket address]; anything further
 * left was written by the client and is ignored. With no trusted proxy, the socket address.
 * @param {string | undefined} socketAddress
 * @param {string | string[] | undefined} forwardedFor
 * @param {number} hops
 * @returns {string}
 */
export function resolveClientAddress(socketAddress, forwardedFor, hops) {
  const socket = socketAddress || 'unknown';
  if (!hops) return socket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  // Only the right-most entries matter; a client can send a megabyte of them.
  const entries = header
    .slice(-64 * (hops + 1))
    .split(',')
    .map((/** @type {string} */ entry) => entry.trim());
  const chain = [...entries.filter(Boolean), socket];
  const candidate = chain[Math.max(0, chain.length - 1 - hops)];
  return candidate && isIP(candidate) ? candidate : socket;
}

/**
 * The key a rate limit counts a client under: an IPv4 address as it is (IPv4-mapped IPv6 too), an
 * IPv6 address by its /64, since one subscriber is given a whole /64 and could rotate through it.
 * @param {string} address
 * @returns {string}
 */
export function rateLimitKey(address) {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...new Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((/** @type {string} */ group) => group.replace(/^0{1,3}(?=.)/, '') || '0')
    .join(':')}::/64`;
}

/**
 * The visitor's address as server.mjs resolved it, read by a route handler: the socket's, or behind
 * TRUST_PROXY proxies the right hop of X-Forwarded-For.
 * @param {Headers} headers
 * @returns {string}
 */
export function clientAddress(headers) {
  return headers.get(CLIENT_ADDRESS_HEADER)?.trim() || 'unknown';
}
