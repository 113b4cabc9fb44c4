import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '@/server/rate-limiter';

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
});
