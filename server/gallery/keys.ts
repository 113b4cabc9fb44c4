import 'server-only';
import { trimBoth } from '@/lib/trim-characters.mjs';

const MAX_KEY_LENGTH = 512;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A media key of the built-in gallery: '/'-separated segments of letters, digits, '.', '_' and '-',
 * none starting with '.' (so no '..', no hidden files), no empty segments, no backslashes.
 */
export function isValidMediaKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment));
}

/** A file name made safe to become a key segment: lower case, ASCII, hyphens. */
export function slugify(value: string): string {
  const slug = trimBoth(
    value
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-'),
    '-',
  ).slice(0, 60);
  return slug || 'media';
}
