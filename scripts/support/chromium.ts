// Debian's Chromium as the benchmarks and the policy PDF launch it: its path (CHROMIUM_PATH, or
// CHROME_PATH as Lighthouse names it), and the flags that keep it from calling home, updating itself
// or speaking QUIC while it is measured or tested.
export const chromiumPath = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';

// The browser tests drive the same Chromium build's headless shell (Debian's chromium-headless-shell,
// as Playwright's own headless runs do): no windows or compositing of the full browser, about 40 % less
// CPU on the tests' two CPUs (docs/decisions/0072-browser-tests-in-chromiums-headless-shell.md).
export const headlessShellPath = process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell';

export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
