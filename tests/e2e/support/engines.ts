import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { Key, remote } from 'webdriverio';
import { HYDRATED } from './hydration';

// The two engines besides Chromium, each behind the same few operations the engine journeys need.
// Firefox ESR speaks WebDriver BiDi itself, so puppeteer-core drives it (no geckodriver): console,
// page errors, failed requests and request interception all come as events. WebKit is WebKitGTK's
// MiniBrowser behind WebKitWebDriver (classic WebDriver, driven by WebdriverIO) under Xvfb: classic
// WebDriver has no events, so problems are collected by a script the page runs (installed after each
// full load, so an error during the very first load is not seen there) and from Resource Timing.
// WebKitWebDriver cannot intercept requests either: MiniBrowser is given a local proxy instead, which
// answers the intercepted HTTPS requests itself behind a self-signed certificate (accepted, as the
// session accepts insecure certificates) and lets the site's own hosts (127.0.0.1) go direct.

export type EngineName = 'firefox' | 'webkit';
export type KeyName = 'Tab' | 'Shift+Tab' | 'Escape' | 'Enter' | 'ArrowRight' | 'ArrowLeft';
export type Viewport = { width: number; height: number };

export interface EngineSession {
  readonly name: EngineName;
  /** Loads `url` and, unless the page's scripts are kept from it, waits until React has hydrated it. */
  goto(url: string, options?: { scriptsBlocked?: boolean }): Promise<void>;
  click(selector: string): Promise<void>;
  type(selector: string, text: string): Promise<void>;
  press(key: KeyName): Promise<void>;
  upload(selector: string, file: string): Promise<void>;
  /** Turns the mouse wheel over the middle of the viewport, as a visitor scrolls. */
  wheel(deltaY: number): Promise<void>;
  /** Runs `body` (the text of a function body) in the page and returns what it returns. */
  evaluate<T>(body: string): Promise<T>;
  /** Waits until `body` returns a truthy value, for up to `timeoutMs`. */
  waitFor(body: string, timeoutMs?: number): Promise<void>;
  /** Console errors, uncaught errors, CSP violations and failed requests seen so far. */
  problems(): Promise<string[]>;
  close(): Promise<void>;
}

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER =
  process.env.MINIBROWSER_PATH ??
  ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser'].find((file) =>
    existsSync(file),
  ) ??
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Recorded in the page: CSP violations, uncaught errors and console.error calls. */
const PAGE_WATCH = `
  if (!window.__problems) {
    window.__problems = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__problems.push('CSP ' + location.pathname + ': ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline')));
    window.addEventListener('error', (event) => window.__problems.push('error ' + location.pathname + ': ' + event.message));
    window.addEventListener('unhandledrejection', (event) => window.__problems.push('rejection ' + location.pathname + ': ' + String(event.reason)));
    const original = console.error.bind(console);
    console.error = (...args) => { window.__problems.push('console.error ' + location.pathname + ': ' + args.map(String).join(' ')); original(...args); };
  }`;
// Resource Timing gives each request's status where the engine records it (responseStatus); where it
// does not (WebKitGTK), each same-origin resource is asked for again and its status checked; calls the
// page made itself (fetch, beacons) are not repeated, as a second POST would be a different request.
const READ_PROBLEMS = `return (async () => {
  const entries = performance.getEntriesByType('resource')
    .filter((entry) => entry.responseStatus > 0 || !['fetch', 'xmlhttprequest', 'beacon'].includes(entry.initiatorType));
  const statuses = await Promise.all(entries.map(async (entry) => {
    if (typeof entry.responseStatus === 'number' && entry.responseStatus > 0) return [entry.name, entry.responseStatus];
    if (new URL(entry.name).origin !== location.origin) return [entry.name, 0];
    try { return [entry.name, (await fetch(entry.name, { cache: 'force-cache' })).status]; } catch { return [entry.name, -1]; }
  }));
  return (window.__problems || []).concat(statuses.filter(([, status]) => status >= 400 || status === -1).map(([url, status]) => 'HTTP ' + status + ' ' + url));
})();`;

/** The icons a browser loads for the tab (the site's are Next's metadata files). */
const TAB_ICON = /^\/(?:favicon\.ico|icon[^/]*|apple-icon[^/]*)$/;

type Intercept = { url: RegExp; contentType: string; body: string };

/**
 * Evaluates `expression` in the page every `intervalMs` until it is truthy. Puppeteer's
 * waitForFunction would rebuild it in the page with Function(), which Firefox ESR 140 holds to the
 * page's CSP (no 'unsafe-eval'), while an evaluation from the driver is not; an evaluation that fails
 * (the page navigating away meanwhile) counts as not yet.
 */
async function pollInPage(page: PuppeteerPage, expression: string, { timeoutMs, intervalMs }: { timeoutMs: number; intervalMs: number }) {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await page.evaluate(expression)) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`${page.url()}: still false after ${timeoutMs} ms: ${expression}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

async function firefoxSession(viewport: Viewport, intercepts: Intercept[]): Promise<EngineSession> {
  const browser: PuppeteerBrowser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    protocol: 'webDriverBiDi',
    defaultViewport: viewport,
  });
  const page: PuppeteerPage = await browser.newPage();
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(`console ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.push(`pageerror ${String(error)}`));
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';
    // Firefox loads a tab's icons after the page itself and cuts them off when the tab moves on (a
    // link's page that refreshes at once, a page left right after a click): no fault of the page.
    if (error === 'NS_BINDING_ABORTED' && TAB_ICON.test(new URL(request.url()).pathname)) return;
    // Nor is the flight data of a page the router fetched ahead (`?_rsc=`) and dropped when the visitor
    // moved on before it arrived, as happens on a slow or busy phone.
    if (error === 'NS_BINDING_ABORTED' && new URL(request.url()).searchParams.has('_rsc')) return;
    seen.push(`failed ${request.url()} ${error}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) seen.push(`HTTP ${response.status()} ${response.url()}`);
  });
  await page.evaluateOnNewDocument(PAGE_WATCH);
  if (intercepts.length > 0) {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const match = intercepts.find((intercept) => intercept.url.test(request.url()));
      if (match) void request.respond({ status: 200, contentType: match.contentType, body: match.body });
      else void request.continue();
    });
  }
  return {
    name: 'firefox',
    goto: async (url, { scriptsBlocked = false } = {}) => {
      await page.goto(url, { waitUntil: 'load' });
      if (!scriptsBlocked) await pollInPage(page, HYDRATED, { timeoutMs: 15_000, intervalMs: 25 });
    },
    click: async (selector) => {
      await page.waitForSelector(selector, { visible: true });
      await page.click(selector);
    },
    type: async (selector, text) => {
      await page.waitForSelector(selector, { visible: true });
      await page.type(selector, text);
    },
    press: async (key) => {
      if (key !== 'Shift+Tab') return page.keyboard.press(key);
      await page.keyboard.down('Shift');
      await page.keyboard.press('Tab');
      await page.keyboard.up('Shift');
    },
    upload: async (selector, file) => {
      const input = await page.waitForSelector(selector);
      await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    },
    wheel: async (deltaY) => {
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await page.mouse.wheel({ deltaY });
    },
    evaluate: <T>(body: string) => page.evaluate(`(() => { ${body} })()`) as Promise<T>,
    waitFor: (body, timeoutMs = 10_000) => pollInPage(page, `(() => { ${body} })()`, { timeoutMs, intervalMs: 100 }),
    problems: async () => [...seen, ...((await page.evaluate(`(() => { ${READ_PROBLEMS} })()`)) as string[])],
    close: () => browser.close(),
  };
}

/** An HTTP proxy that answers every CONNECT itself, over TLS, with the matching intercept or a 502. */
async function interceptingProxy(intercepts: Intercept[]): Promise<{ url: string; close(): void }> {
  const folder = mkdtempSync(path.join(tmpdir(), 'homecare-engine-proxy-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=intercepted', '-keyout', 'key.pem', '-out', 'cert.pem'],
      { cwd: folder, stdio: 'ignore' },
    );
    const key = readFileSync(path.join(folder, 'key.pem'));
    const cert = readFileSync(path.join(folder, 'cert.pem'));
    const answer = http.createServer((request, response) => {
      const url = `https://${request.headers.host}${request.url}`;
      const match = intercepts.find((intercept) => intercept.url.test(url));
      response.writeHead(match ? 200 : 502, { 'content-type': match?.contentType ?? 'text/plain' });
      response.end(match?.body ?? 'not intercepted');
    });
    const proxy = http.createServer((_request, response) => {
      response.writeHead(502);
      response.end();
    });
    proxy.on('connect', (_request, socket) => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      answer.emit('connection', new tls.TLSSocket(socket, { isServer: true, key, cert }));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      close: () => {
        proxy.close();
        proxy.closeAllConnections();
        answer.closeAllConnections();
      },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether something listens on the Unix socket at `path`. */
const acceptsConnections = (path: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Polls `ready` every 50 ms until it holds; throws after `timeoutMs`. */
async function until(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let display: { number: number; xvfb: ChildProcess } | null = null;
let nextPort = 4600 + Number(process.env.TEST_PORT_OFFSET ?? 0);

async function webkitSession(viewport: Viewport, intercepts: Intercept[]): Promise<EngineSession> {
  if (!display) {
    // A display of its own for each port offset (a lane, another checkout): 1000 → :100, 2000 → :110.
    const number = 90 + Math.floor(Number(process.env.TEST_PORT_OFFSET ?? 0) / 100);
    const xvfb = spawn('Xvfb', [`:${number}`, '-screen', '0', '1400x1000x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    process.once('exit', () => xvfb.kill());
    display = { number, xvfb };
    // Up once its socket takes a connection.
    await until(() => acceptsConnections(`/tmp/.X11-unix/X${number}`), `Xvfb :${number} listening`);
  }
  const proxy = intercepts.length > 0 ? await interceptingProxy(intercepts) : null;
  const proxyArguments = proxy ? [`--proxy=${proxy.url}`, '--ignore-host=127.0.0.1', '--ignore-host=localhost'] : [];
  const port = nextPort++;
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: `:${display.number}` } });
  // Up once it answers WebDriver's status request.
  await until(
    () =>
      fetch(`http://127.0.0.1:${port}/status`).then(
        (response) => response.ok,
        () => false,
      ),
    `WebKitWebDriver answering on port ${port}`,
  );
  const browser = await remote({
    hostname: '127.0.0.1',
    port,
    path: '/',
    logLevel: 'warn',
    connectionRetryCount: 5,
    capabilities: {
      browserName: 'MiniBrowser',
      acceptInsecureCerts: proxy !== null,
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...proxyArguments] },
      'wdio:enforceWebDriverClassic': true,
    } as WebdriverIO.Capabilities,
  });
  await browser.setWindowSize(viewport.width, viewport.height);
  // The inner size is what the page lays out against; the window's frame takes some of it.
  const inner = await browser.execute(() => ({ width: window.innerWidth, height: window.innerHeight }));
  await browser.setWindowSize(viewport.width * 2 - inner.width, viewport.height * 2 - inner.height);
  const watch = () => browser.execute(PAGE_WATCH);
  return {
    name: 'webkit',
    goto: async (url, { scriptsBlocked = false } = {}) => {
      await browser.url(url);
      await watch();
      if (scriptsBlocked) return;
      await browser.waitUntil(async () => Boolean(await browser.execute(`return ${HYDRATED}`)), { timeout: 15_000, interval: 25 });
    },
    click: async (selector) => {
      const element = await browser.$(selector);
      await element.waitForDisplayed();
      await element.click();
    },
    type: async (selector, text) => {
      const element = await browser.$(selector);
      await element.waitForDisplayed();
      await element.addValue(text);
    },
    press: async (key) => {
      const keys = { Tab: Key.Tab, Escape: Key.Escape, Enter: Key.Enter, ArrowRight: Key.ArrowRight, ArrowLeft: Key.ArrowLeft };
      const action = browser.action('key');
      if (key === 'Shift+Tab') action.down(Key.Shift).down(Key.Tab).up(Key.Tab).up(Key.Shift);
      else action.down(keys[key]).up(keys[key]);
      await action.perform();
    },
    upload: async (selector, file) => {
      const element = await browser.$(selector);
      await element.setValue(file);
    },
    wheel: () => {
      // Tried: the wheel action is accepted and scrolls nothing, so a test relying on it could not fail.
      throw new Error("WebKitWebDriver's wheel action does not scroll the page");
    },
    evaluate: <T>(body: string) => browser.execute(body) as Promise<T>,
    waitFor: async (body, timeoutMs = 10_000) => {
      await browser.waitUntil(async () => Boolean(await browser.execute(body)), { timeout: timeoutMs, interval: 100 });
    },
    problems: () => browser.execute(READ_PROBLEMS) as Promise<string[]>,
    close: async () => {
      await browser.deleteSession().catch(() => undefined);
      driver.kill();
      proxy?.close();
    },
  };
}

export function openEngine(name: EngineName, viewport: Viewport, intercepts: Intercept[] = []): Promise<EngineSession> {
  return name === 'firefox' ? firefoxSession(viewport, intercepts) : webkitSession(viewport, intercepts);
}
