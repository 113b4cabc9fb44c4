// Every route's server-rendered HTML passes the W3C Nu HTML Checker (vnu-jar, offline) with zero errors.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/test';
import { testSiteUrl } from './test-env';
import { allRoutes as routes } from '../../scripts/support/routes';

type VnuMessage = { type: string; subType?: string; url: string; lastLine?: number; message: string; extract?: string };

test('the HTML of every route, and of the 404 page, is valid', async () => {
  test.setTimeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'homecare-html-'));
  try {
    const files: string[] = [];
    for (const path of [...routes.map((route) => route.path), '/no-such-page']) {
      const response = await fetch(`${testSiteUrl}${path}`);
      const file = join(dir, `${path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')}.html`);
      writeFileSync(file, await response.text());
      files.push(file);
    }
    // The pages carry their stylesheet inline (Tailwind v4's output), and vnu's CSS checker predates
    // what it uses (`@property`, `margin-trim`): this test is about the HTML, so CSS messages are left out.
    const checker = ['-jar', 'node_modules/vnu-jar/build/dist/vnu.jar', '--format', 'json', '--filterpattern', 'CSS: .*'];
    const result = spawnSync('java', [...checker, ...files], { encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    const { messages } = JSON.parse(result.stderr || result.stdout) as { messages: VnuMessage[] };
    const errors = messages
      .filter((message) => message.type === 'error' || message.subType === 'fatal')
      .map((message) => `${message.url.split('/').pop()}:${message.lastLine ?? '?'} ${message.message}`);
    expect(errors).toEqual([]);
    // Everything else vnu says is informational (React writes void elements as <img />).
    expect(messages.every((message) => message.type === 'info')).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
