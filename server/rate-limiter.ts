import 'server-only';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * In-memory sliding-window limiter keyed by client: at most `limit` hits per `windowMs`.
 * Per process, which is right for one server; several instances would need a shared store.
 */
export function createRateLimiter({ limit, windowMs, now = Date.now }: { limit: number; windowMs: number; now?: () => number }) {
  const hits = new Map<string, number[]>();
  let lastSweep = now();

  function sweep(current: number) {
    if (current - lastSweep < windowMs) return;
    lastSweep = current;
    for (const [key, times] of hits) {
      if ((times[times.length - 1] ?? 0) <= current - windowMs) hits.delete(key);
    }
  }

  function recent(key: string, current: number) {
    const times = (hits.get(key) ?? []).filter((time) => time > current - windowMs);
    hits.set(key, times);
    return times;
  }

  return {
    /** Whether `key` may have one more hit now, without recording it. */
    peek(key: string): RateLimitDecision {
      const current = now();
      const times = recent(key, current);
      if (times.length < limit) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(((times[0] ?? current) + windowMs - current) / 1000)) };
    },
    /** Records a hit for `key` if allowed. */
    hit(key: string): RateLimitDecision {
      const current = now();
      sweep(current);
      const decision = this.peek(key);
      if (decision.allowed) recent(key, current).push(current);
      return decision;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
