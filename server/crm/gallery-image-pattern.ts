// The optimiser's allow-list, built from the CRM's URL at build time (next.config.ts): exactly the
// CRM's scheme, host and port, any path, no query string. Plain of Next's types so it can be unit-tested.
import { isIP } from 'node:net';

type CrmImagePattern = { protocol: 'http' | 'https'; hostname: string; port: string; pathname: string; search: string };

export function crmImagePattern(crmUrl: string): CrmImagePattern | null {
  const trimmed = crmUrl.trim();
  if (trimmed === '') return null;
  const url = new URL(trimmed);
  const protocol = url.protocol === 'https:' ? 'https' : url.protocol === 'http:' ? 'http' : null;
  if (!protocol) return null;
  // URL keeps IPv6 literals in brackets; remotePatterns wants the bare address.
  return { protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, pathname: '/**', search: '' };
}

/**
 * Whether the CRM's host is a loopback or private address (or localhost): the optimiser refuses such
 * hosts unless told otherwise, which is right for any other URL, and only the CRM's origin is allowed.
 */
export function crmIsOnPrivateNetwork(crmUrl: string): boolean {
  const pattern = crmImagePattern(crmUrl);
  if (!pattern) return false;
  const host = pattern.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (isIP(host) === 6) return host === '::1' || /^f[cd]/.test(host) || host.startsWith('fe80:');
  return false;
}
