import { describe, expect, it } from 'vitest';
import { MIN_UPLOAD_BYTES_PER_SECOND, UPLOAD_SLOTS as RULES_UPLOAD_SLOTS } from '@/lib/enquiry-rules.mjs';
import { createUploadSlots, UPLOAD_SLOTS, type UploadSlot } from '@/server/edge/upload-slots.mjs';

function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const held = (decision: ReturnType<ReturnType<typeof createUploadSlots>['acquire']>): UploadSlot => {
  if (!decision.ok) throw new Error(`refused: ${decision.status} ${decision.reason}`);
  return decision.slot;
};

describe('upload slots', () => {
  it('has the documented figures', () => {
    expect(UPLOAD_SLOTS).toMatchObject({
      total: 6,
      atMinimumRate: 3,
      fastBytesPerSecond: 64_000,
      perClient: 1,
      strikesAllowed: 3,
      strikeWindowMs: 3_600_000,
      retryAfterSeconds: 30,
    });
    // The figures are the enquiry's rules, which the benchmarks read too.
    expect(UPLOAD_SLOTS).toBe(RULES_UPLOAD_SLOTS);
  });

  it('without limits of its own, takes UPLOAD_SLOTS.total uploads at once, the first atMinimumRate of them at the minimum rate', () => {
    const slots = createUploadSlots({ now: clock().now });
    const uploads = Array.from({ length: UPLOAD_SLOTS.total }, (_, client) => held(slots.acquire(`192.0.2.${client + 100}`)));
    expect(uploads.filter((slot) => slot.minBytesPerSecond() === MIN_UPLOAD_BYTES_PER_SECOND)).toHaveLength(UPLOAD_SLOTS.atMinimumRate);
    expect(slots.acquire('192.0.2.200')).toMatchObject({ ok: false, status: 503, reason: 'busy' });
  });

  it('four clients trickling at the minimum rate do not hold every slot: the rest take uploads that keep up 64 KB/s', () => {
    const slots = createUploadSlots({ now: clock().now });
    const trickling = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'].map((key) => held(slots.acquire(key)));
    expect(trickling.map((slot) => slot.minBytesPerSecond())).toEqual([16_000, 16_000, 16_000, 64_000]);
    // Two more visitors are still served, at the faster rate; a third is told when to come back.
    const visitors = ['198.51.100.1', '198.51.100.2'].map((key) => held(slots.acquire(key)));
    expect(visitors.map((slot) => slot.minBytesPerSecond())).toEqual([64_000, 64_000]);
    expect(slots.acquire('198.51.100.3')).toEqual({ ok: false, status: 503, reason: 'busy', retryAfterSeconds: 30 });
    // A trickler cut off: its minimum-rate slot goes to the upload waiting longest in a fast one.
    trickling[0]!.release('slow');
    expect(trickling[3]!.minBytesPerSecond()).toBe(16_000);
    expect(visitors.map((slot) => slot.minBytesPerSecond())).toEqual([64_000, 64_000]);
    expect(slots.state()).toEqual({ held: 5, atMinimumRate: 3, clientsWithStrikes: 1 });
  });

  it('one upload at a time per client (429 with Retry-After), another client is served', () => {
    const slots = createUploadSlots({ now: clock().now });
    const first = held(slots.acquire('192.0.2.9'));
    expect(slots.acquire('192.0.2.9')).toEqual({ ok: false, status: 429, reason: 'in-progress', retryAfterSeconds: 30 });
    expect(slots.acquire('192.0.2.10').ok).toBe(true);
    first.release('completed');
    first.release('completed');
    expect(slots.acquire('192.0.2.9').ok).toBe(true);
    expect(slots.state().held).toBe(2);
  });

  it('a client whose uploads keep ending slow or abandoned waits its turn; an honest slow phone keeps its first tries', () => {
    const time = clock();
    const slots = createUploadSlots({ now: time.now });
    const phone = '203.0.113.7';
    // Two tries lost to a bad signal, then one that arrives however long it takes: never refused.
    held(slots.acquire(phone)).release('abandoned');
    held(slots.acquire(phone)).release('slow');
    time.advance(20 * 60_000);
    held(slots.acquire(phone)).release('completed');
    held(slots.acquire(phone)).release('refused');
    // A third slow one within the hour: the client waits until its oldest strike is an hour old.
    held(slots.acquire(phone)).release('slow');
    expect(slots.acquire(phone)).toEqual({ ok: false, status: 429, reason: 'strikes', retryAfterSeconds: 40 * 60 });
    expect(slots.acquire('203.0.113.8').ok).toBe(true);
    time.advance(40 * 60_000);
    expect(slots.acquire(phone).ok).toBe(true);
  });

  it('cut off in a fast slot is not held against the client', () => {
    const slots = createUploadSlots({ now: clock().now });
    for (const key of ['a', 'b', 'c']) held(slots.acquire(key));
    for (let round = 0; round < 5; round += 1) {
      const fast = held(slots.acquire('phone'));
      expect(fast.minBytesPerSecond()).toBe(64_000);
      fast.release('slow');
    }
    expect(slots.acquire('phone').ok).toBe(true);
    expect(slots.state().clientsWithStrikes).toBe(0);
  });

  it('never makes a client on this machine wait (every visitor behind an undeclared proxy shares its address)', () => {
    const slots = createUploadSlots({ now: clock().now });
    for (let round = 0; round < 5; round += 1) held(slots.acquire('127.0.0.1')).release('abandoned');
    expect(slots.acquire('127.0.0.1').ok).toBe(true);
    expect(slots.state().clientsWithStrikes).toBe(0);
  });

  it('remembers strikes of at most maxClients clients', () => {
    const slots = createUploadSlots({ limits: { ...UPLOAD_SLOTS, maxClients: 3 }, now: clock().now });
    for (let client = 0; client < 10; client += 1) held(slots.acquire(`10.0.0.${client}`)).release('abandoned');
    expect(slots.state().clientsWithStrikes).toBe(3);
  });
});
