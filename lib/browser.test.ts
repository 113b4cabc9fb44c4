// Runs in Node (the suite's own environment): the server side of code shared with the browser. Node has
// a `navigator` since 21 and a `localStorage` since 25, so a test for those globals' presence finds
// them on the server too.
import { describe, expect, it, vi } from 'vitest';
import { browserIsOffline, browserLocalStorage, inBrowser } from '@/lib/browser';

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
});
