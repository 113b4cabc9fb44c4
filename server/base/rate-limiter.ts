import 'server-only';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The most clients a limiter remembers; beyond it the least recently seen are forgotten first. */
const MAX_TRACKED_CLIENTS = 50_000;

/**
 * In-memory sliding-window limiter keyed by client: at most `limit` hits per `windowMs`.
 * Per process, which is right for one server; several instances would need a shared store.
 * Its memory is bounded: `peek` never stores anything, keys whose window has passed are swept, and
 * at most `maxKeys` clients are kept (the least recently hit tenth is forgotten when it is reached), so a flood of fresh
 * addresses cannot grow it without end. Callers key IPv6 clients by their /64 (rateLimitKey).
 */
export function createRateLimiter({
  limit,
  windowMs,
  now = Date.now,
  maxKeys = MAX_TRACKED_CLIENTS,
}: {
  limit: number;
  windowMs: number;
  now?: () => number;
  maxKeys?: number;
}) {
  // Insertion order is recency order: a hit moves its key to the end.
  const hits = new Map<string, number[]>();
  let lastSweep = now();

  function sweep(current: number) {
    if (current - lastSweep < windowMs) return;
    lastSweep = current;
    for (const [key, times] of hits) {
      if ((times[times.length - 1] ?? 0) <= current - windowMs) hits.delete(key);
    }
  }

  function recent(key: string, current: number): number[] {
    return (hits.get(key) ?? []).filter((time) => time > current - windowMs);
  }

  function decide(times: number[], current: number): RateLimitDecision {
    if (times.length < limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(((times[0] ?? current) + windowMs - current) / 1000)) };
  }

  return {
    /** Whether `key` may have one more hit now, without recording it (and without remembering the key). */
    peek(key: string): RateLimitDecision {
      const current = now();
      return decide(recent(key, current), current);
    },
    /** Records a hit for `key` if allowed. */
    hit(key: string): RateLimitDecision {
      const current = now();
      sweep(current);
      const times = recent(key, current);
      const decision = decide(times, current);
      if (decision.allowed) times.push(current);
      hits.delete(key);
      if (times.length > 0) hits.set(key, times);
      if (hits.size > maxKeys) {
        // Forget the least recently hit tenth in one pass: amortised O(1) per hit.
        const target = Math.floor(maxKeys * 0.9);
        for (const oldest of hits.keys()) {
          if (hits.size <= target) break;
          hits.delete(oldest);
        }
      }
      return decision;
    },
    /** How many clients it remembers now. */
    get size(): number {
      return hits.size;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
