import 'server-only';
import { CLIENT_ADDRESS_HEADER } from '@/server/proxy-client-address.mjs';

/**
 * The visitor's address as server.mjs resolved it (the socket's, or behind TRUST_PROXY proxies the
 * right hop of X-Forwarded-For: server/proxy-client-address.mjs). server.mjs overwrites the header
 * on every request, so a client cannot set it.
 */
export function clientAddress(headers: Headers): string {
  return headers.get(CLIENT_ADDRESS_HEADER)?.trim() || 'unknown';
}
