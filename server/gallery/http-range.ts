import 'server-only';

type ByteRange = { start: number; end: number };

/**
 * Reads a Range header for a resource of `size` bytes (RFC 9110 14.2): a single byte range
 * (`bytes=a-b`, `bytes=a-`, `bytes=-n`). Returns null when the whole resource should be sent (no
 * header, another unit, several ranges or a malformed value, all of which a server may ignore) and
 * 'unsatisfiable' for a range that starts beyond the end.
 */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
