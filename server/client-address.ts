import 'server-only';

/** Set by server.mjs from the TCP socket; any value a client sends is overwritten there. */
export const SOCKET_ADDRESS_HEADER = 'x-homecare-socket-address';

/**
 * The visitor's address for rate limiting: the socket's, or, only when the site runs behind a
 * proxy we trust (TRUST_PROXY set), the first X-Forwarded-For hop.
 */
export function clientAddress(headers: Headers, trustProxy = isProxyTrusted()): string {
  if (trustProxy) {
    const firstHop = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (firstHop) return firstHop;
  }
  return headers.get(SOCKET_ADDRESS_HEADER)?.trim() || 'unknown';
}

export function isProxyTrusted(): boolean {
  const value = process.env.TRUST_PROXY?.trim().toLowerCase();
  return !!value && value !== '0' && value !== 'false' && value !== 'no';
}
