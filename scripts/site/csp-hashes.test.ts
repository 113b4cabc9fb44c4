import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, routeOfHtmlFile } from './csp-hashes';

const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('inline script hashes', () => {
  it('hashes executable inline scripts exactly as written, skipping external scripts and data blocks', () => {
    const html =
      '<script src="/a.js" async=""></script><script>self.a=1</script><script id="_R_">b()</script>' +
      '<script type="application/ld+json">{"@type":"Thing"}</script><script type="module">c()</script>';
    expect(inlineScriptHashes(html)).toEqual([sha('self.a=1'), sha('b()'), sha('c()')].sort());
  });

  it('maps prerendered files to routes', () => {
    expect(routeOfHtmlFile('index.html')).toBe('/');
    expect(routeOfHtmlFile('about.html')).toBe('/about');
    expect(routeOfHtmlFile('_not-found.html')).toBe('/_not-found');
  });
});
