import { describe, expect, it } from 'vitest';
import { createRetryingStarter, startRetryDelayMs } from '@/server/background';

describe('starting the outbox worker', () => {
  it('retries a start that failed, with growing delays, instead of remembering the failure', async () => {
    let calls = 0;
    const logged: string[] = [];
    const starter = createRetryingStarter({
      create: async () => {
        calls += 1;
        if (calls < 3) throw new Error(`SQLITE_BUSY ${calls}`);
        return 'worker';
      },
      retryDelayMs: () => 10,
      log: (line) => logged.push(line),
    });
    await expect(starter.start()).rejects.toThrow('SQLITE_BUSY 1');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls).toBe(3);
    await expect(starter.start()).resolves.toBe('worker');
    expect(calls).toBe(3);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain('could not start (attempt 1)');
    starter.cancel();
  });

  it('waits 5 s, then twice as long each time, at most 5 minutes', () => {
    expect([1, 2, 3, 7, 20].map(startRetryDelayMs)).toEqual([5_000, 10_000, 20_000, 300_000, 300_000]);
  });
});
