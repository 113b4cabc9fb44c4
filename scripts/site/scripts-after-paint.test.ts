import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { chunksLoadedAfterPaint, loadChunksAfterPaint, scriptsAfterPaint } from './scripts-after-paint';

/** The head and body of a prerendered page as Next 16 writes them. */
const page = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><style data-href="/_next/static/chunks/a.css">body{}</style>',
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/main.js"/>',
  '<script src="/_next/static/chunks/one.js" async=""></script><script src="/_next/static/chunks/two.js" async=""></script>',
  '<script src="/_next/static/chunks/polyfills.js" noModule=""></script></head>',
  '<body><h1>Hi</h1><script>self.__next_f.push([1,"x"])</script>',
  '<script src="/_next/static/chunks/main.js" async=""></script></body></html>',
].join('');

const loaderOf = (html: string) => /<script>(\(\(\)=>\{let d=0;[\s\S]*?)<\/script>/.exec(html)![1]!;

/** Runs the loader in a fake page: the scripts it adds, and the browser events it waits for. */
function runLoader(html: string, { paintTiming = true, visibility = 'visible' } = {}) {
  const added: string[] = [];
  const listeners: Record<string, () => void> = {};
  const timers: { fn: () => void; ms: number }[] = [];
  let paintCallback: ((list: { getEntriesByName: (name: string) => unknown[] }, observer: { disconnect: () => void }) => void) | undefined;
  class PerformanceObserver {
    static supportedEntryTypes = paintTiming ? ['paint'] : [];
    constructor(callback: typeof paintCallback) {
      paintCallback = callback;
    }
    observe() {
      if (!paintTiming) throw new TypeError('paint is not supported');
    }
    disconnect() {}
  }
  const document = {
    visibilityState: visibility,
    createElement: () => ({}) as { src?: string; async?: boolean },
    head: { appendChild: (element: { src: string; async: boolean }) => added.push(`${element.src}${element.async ? ' async' : ''}`) },
  };
  runInNewContext(loaderOf(html), {
    document,
    PerformanceObserver,
    addEventListener: (name: string, listener: () => void) => (listeners[name] = listener),
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
  });
  const paint = (name: string) => paintCallback?.({ getEntriesByName: (wanted) => (wanted === name ? [{}] : []) }, { disconnect() {} });
  return { added, listeners, timers, paint };
}

describe('Next’s chunks after the first paint', () => {
  it('takes every async chunk and script preload out of the page, keeps the nomodule script and the flight data', () => {
    const html = loadChunksAfterPaint(page);
    expect(html).not.toMatch(/<script src="[^"]+" async="">/);
    expect(html).not.toContain('rel="preload" as="script"');
    expect(html).toContain('<script src="/_next/static/chunks/polyfills.js" noModule=""></script>');
    expect(html).toContain('<script>self.__next_f.push([1,"x"])</script>');
    expect(html.indexOf('let d=0')).toBeLessThan(html.indexOf('</head>'));
    expect(chunksLoadedAfterPaint(html)).toEqual([
      '/_next/static/chunks/one.js',
      '/_next/static/chunks/two.js',
      '/_next/static/chunks/main.js',
    ]);
    expect(loadChunksAfterPaint(html)).toBe(html);
    expect(chunksLoadedAfterPaint(page)).toEqual([]);
  });

  it('stops the build when Next writes a chunk script in a form it does not know, rather than leave it', () => {
    const changed = page.replace(
      '<script src="/_next/static/chunks/two.js" async=""></script>',
      '<script async src="/_next/static/chunks/two.js"></script>',
    );
    expect(() => loadChunksAfterPaint(changed)).toThrow(
      'A chunk script is left in a page: Next changed how it writes them; see decision 0031.',
    );
    const allChanged = page.replace(/<script src="([^"]+)" async=""><\/script>/g, '<script async src="$1"></script>');
    expect(() => loadChunksAfterPaint(allChanged)).toThrow('A chunk script is left in a page');
  });

  it('adds the chunks, async and once, at the first contentful paint and not at the first paint', () => {
    const { added, listeners, timers, paint } = runLoader(loadChunksAfterPaint(page));
    paint('first-paint');
    expect(added).toEqual([]);
    paint('first-contentful-paint');
    expect(added).toEqual(['/_next/static/chunks/one.js async', '/_next/static/chunks/two.js async', '/_next/static/chunks/main.js async']);
    listeners.load!();
    for (const timer of timers) timer.fn();
    expect(added).toHaveLength(3);
  });

  it('adds them at the load event where no paint will be reported: a tab in the background, no paint timing', () => {
    for (const options of [{ visibility: 'hidden' }, { paintTiming: false }]) {
      const { added, listeners, timers } = runLoader(loadChunksAfterPaint(page), options);
      listeners.load!();
      expect(timers.map((timer) => timer.ms)).toEqual([0]);
      timers[0]!.fn();
      expect(added).toHaveLength(3);
    }
  });

  it('in a visible page whose paint is never reported, adds them 3 s after the load event', () => {
    const { added, listeners, timers } = runLoader(loadChunksAfterPaint(page));
    listeners.load!();
    expect(timers.map((timer) => timer.ms)).toEqual([3000]);
    timers[0]!.fn();
    expect(added).toHaveLength(3);
  });

  it('rewrites every prerendered page of a build folder', () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'after-paint-'));
    const app = path.join(dist, 'server', 'app', 'services');
    mkdirSync(app, { recursive: true });
    writeFileSync(path.join(app, 'water-damage.html'), page);
    writeFileSync(path.join(dist, 'server', 'app', 'plain.html'), '<!DOCTYPE html><html><body>no scripts</body></html>');
    expect(scriptsAfterPaint(dist)).toEqual({ files: 1 });
    expect(chunksLoadedAfterPaint(readFileSync(path.join(app, 'water-damage.html'), 'utf8'))).toHaveLength(3);
  });
});
