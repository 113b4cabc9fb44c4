// Debian's Chromium as the browser tests, the benchmarks and the policy PDF launch it: its path
// (CHROMIUM_PATH, or CHROME_PATH as Lighthouse names it), and the flags that keep it from calling
// home, updating itself or speaking QUIC while it is measured or tested.
export const chromiumPath = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';

export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
