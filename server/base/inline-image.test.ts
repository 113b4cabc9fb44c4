import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imageSrc } from '@/server/base/inline-image';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'homecare-inline-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('imageSrc', () => {
  it('inlines a small SVG as a data: URL that decodes to the file', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 1"><title>Van & road</title></svg>';
    writeFileSync(path.join(dir, 'van.svg'), svg);
    const src = imageSrc('/van.svg', dir);
    expect(src.startsWith('data:image/svg+xml,')).toBe(true);
    expect(decodeURIComponent(src.slice('data:image/svg+xml,'.length))).toBe(svg);
  });

  it('keeps the path of a larger SVG and of any other image', () => {
    writeFileSync(path.join(dir, 'big.svg'), `<svg>${' '.repeat(8 * 1024)}</svg>`);
    expect(imageSrc('/big.svg', dir)).toBe('/big.svg');
    expect(imageSrc('/images/fleet.jpg', dir)).toBe('/images/fleet.jpg');
  });

  it('inlines the fleet placeholder the home page shows', () => {
    expect(imageSrc('/images/fleet-placeholder.svg')).toMatch(/^data:image\/svg\+xml,/);
  });
});
