import { describe, expect, it } from 'vitest';
import { clientAddress, SOCKET_ADDRESS_HEADER } from '@/server/client-address';

describe('client address', () => {
  const headers = new Headers({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1', [SOCKET_ADDRESS_HEADER]: '198.51.100.7' });

  it('uses the socket address unless the proxy is trusted', () => {
    expect(clientAddress(headers, false)).toBe('198.51.100.7');
  });

  it('uses the first X-Forwarded-For hop behind a trusted proxy', () => {
    expect(clientAddress(headers, true)).toBe('203.0.113.9');
  });
});
