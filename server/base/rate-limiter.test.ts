import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '@/server/base/rate-limiter';

describe('rate limiter', () => {
  it('allows `limit` hits per window per key and tells when to retry', () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 10_000, now: () => time });
    expect(limiter.hit('a')).toEqual({ allowed: true });
    time = 1_000;
    expect(limiter.hit('a')).toEqual({ allowed: true });
    expect(limiter.hit('b')).toEqual({ allowed: true });
    time = 2_000;
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 8 });
    time = 10_001;
    expect(limiter.hit('a')).toEqual({ allowed: true });
  });

  it('peek does not use up a hit', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000, now: () => 0 });
    expect(limiter.peek('a')).toEqual({ allowed: true });
    expect(limiter.hit('a')).toEqual({ allowed: true });
    expect(limiter.peek('a').allowed).toBe(false);
  });

  it('remembers nothing for keys it was only asked about (peek), however many', () => {
    const limiter = createRateLimiter({ limit: 5, windowMs: 60_000, now: () => 0 });
    for (let i = 0; i < 1_000_000; i += 1) limiter.peek(`client-${i}`);
    expect(limiter.size).toBe(0);
  });

  it('keeps at most maxKeys clients through a million distinct keys, forgetting the least recently hit', { timeout: 30_000 }, () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 5, windowMs: 600_000, now: () => time, maxKeys: 10_000 });
    limiter.hit('regular');
    for (let i = 0; i < 1_000_000; i += 1) {
      if (i % 1000 === 0) limiter.hit('regular');
      limiter.hit(`2001:db8:${i}::/64`);
      time += 0.1;
    }
    expect(limiter.size).toBeLessThanOrEqual(10_000);
    expect(limiter.size).toBeGreaterThanOrEqual(9_000);
    // The regular client was hit recently enough to be kept, with its count.
    for (let i = 0; i < 5; i += 1) limiter.hit('regular');
    expect(limiter.hit('regular').allowed).toBe(false);
  });

  it('sweeps clients whose window has passed', () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 5, windowMs: 1_000, now: () => time });
    for (let i = 0; i < 100; i += 1) limiter.hit(`client-${i}`);
    expect(limiter.size).toBe(100);
    time = 2_500;
    limiter.hit('late');
    expect(limiter.size).toBe(1);
  });
});
