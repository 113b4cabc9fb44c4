import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** SVGs this small travel inside the HTML: the image paints with the document, with no second request. */
const INLINE_SVG_MAX_BYTES = 8 * 1024;

/**
 * The `src` for an image under public/: a small SVG as a data: URL (read when the page is prerendered),
 * anything else (a photo the company drops in under the same name, a larger drawing) as its path.
 */
export function imageSrc(publicPath: string, publicDir = path.join(process.cwd(), 'public')): string {
  if (!publicPath.endsWith('.svg')) return publicPath;
  const svg = readFileSync(path.join(publicDir, publicPath));
  if (svg.length > INLINE_SVG_MAX_BYTES) return publicPath;
  return `data:image/svg+xml,${encodeURIComponent(svg.toString('utf8'))}`;
}
