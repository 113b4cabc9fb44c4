// Runs in Node (the suite's own environment): the server side of code shared with the browser. Node has
// a `navigator` since 21 and a `localStorage` since 25, so a test for those globals' presence finds
// them on the server too.
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@/lib/api-client';
import { browserIsOffline, browserLocalStorage, inBrowser } from '@/lib/browser';
import { createLogger } from '@/lib/logger';
import type { ErrorLogRecord } from '@/lib/error-log';

const nodeMajor = Number.parseInt(process.versions.node, 10);

describe('on the server', () => {
  it('is not a browser, though Node has browser-named globals of its own', () => {
    if (nodeMajor >= 21) expect(typeof navigator).toBe('object');
    expect(inBrowser()).toBe(false);
    expect(browserIsOffline()).toBe(false);
  });

  it('has no browser storage even where Node gives one (node --localstorage-file), and never reads it', () => {
    const read = vi.fn(() => ({ getItem: () => 'stored on the server', setItem: vi.fn() }));
    vi.stubGlobal('localStorage', undefined);
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, get: read });
    const warnings = vi.spyOn(process, 'emitWarning');
    try {
      expect(browserLocalStorage()).toBeNull();
      expect(read).not.toHaveBeenCalled();
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a request that fails is a network failure, never "the browser is offline", whatever the runtime’s navigator says', async () => {
    vi.stubGlobal('navigator', { onLine: false, userAgent: `Node.js/${nodeMajor}` });
    const sent: ErrorLogRecord[] = [];
    const logger = createLogger({
      endpoint: '/api/error-logs',
      console: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
      send: async (_url, body) => {
        sent.push(JSON.parse(body) as ErrorLogRecord);
      },
    });
    const refused = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    const apiRequest = createApiClient(logger, refused);
    try {
      await expect(apiRequest('http://crm.example/api/gallery/public')).rejects.toThrow('Network Error: fetch failed');
      await vi.waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0]).toMatchObject({ category: 'network', message: 'Network Error: fetch failed' });
      expect(JSON.stringify(sent[0]!.metadata)).toContain('"offline":false');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
