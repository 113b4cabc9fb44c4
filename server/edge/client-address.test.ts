import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '@/server/base/config.mjs';
import { CLIENT_ADDRESS_HEADER, clientAddress, rateLimitKey, resolveClientAddress } from '@/server/edge/client-address.mjs';

describe('client address', () => {
  it('reads the address server.mjs resolved', () => {
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: '198.51.100.7', 'x-forwarded-for': '203.0.113.9' }))).toBe('198.51.100.7');
    expect(clientAddress(new Headers())).toBe('unknown');
  });
});

describe('TRUST_PROXY: the number of proxies in front of the server', () => {
  it('is 0 by default and refuses anything but a small number, naming the variable', () => {
    expect(parseTrustProxy(undefined)).toBe(0);
    expect(parseTrustProxy(' ')).toBe(0);
    expect(parseTrustProxy('2')).toBe(2);
    for (const bad of ['true', 'yes', '-1', '1.5', '11', '1e1'])
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY: must be the number of reverse proxies/);
  });

  it('ignores X-Forwarded-For with no trusted proxy', () => {
    expect(resolveClientAddress('198.51.100.7', '203.0.113.9', 0)).toBe('198.51.100.7');
  });

  it('takes the client that many hops from the right, so entries a client wrote itself are ignored', () => {
    // nginx appends the peer: a client's forged "6.6.6.6" stays on the left.
    expect(resolveClientAddress('127.0.0.1', '6.6.6.6, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', '203.0.113.9', 1)).toBe('203.0.113.9');
    // A CDN and then nginx: two hops.
    expect(resolveClientAddress('127.0.0.1', '6.6.6.6, 203.0.113.9, 10.0.0.5', 2)).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', ['6.6.6.6', '203.0.113.9'], 1)).toBe('203.0.113.9');
  });

  it('falls back to the socket when the header is missing, short or not an address', () => {
    expect(resolveClientAddress('127.0.0.1', undefined, 1)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', 'not-an-address', 1)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', '', 1)).toBe('127.0.0.1');
    expect(resolveClientAddress(undefined, undefined, 0)).toBe('unknown');
  });

  it('reads only the end of a huge header', () => {
    expect(resolveClientAddress('127.0.0.1', `${'6.6.6.6, '.repeat(100_000)}203.0.113.9`, 1)).toBe('203.0.113.9');
  });
});

describe('rate-limit keys', () => {
  it('keys IPv4 (and IPv4-mapped IPv6) by the address, IPv6 by its /64', () => {
    expect(rateLimitKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:0DB8:0001:0002::ffff')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKey('unknown')).toBe('unknown');
  });
});
