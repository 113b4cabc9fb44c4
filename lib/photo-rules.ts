/**
 * Damage photos sent with an enquiry: the limits the form checks before sending and the
 * server enforces while it reads the upload. The messages are in content/contact.ts.
 */
export const PHOTO_FIELD = 'photos';
export const PHOTO_MAX_COUNT = 6;
/** 10 MB, in decimal units as phones and the form show sizes. */
export const PHOTO_MAX_BYTES = 10_000_000;
/** Longest side of a stored photo, in pixels. */
export const PHOTO_MAX_SIDE = 2048;
/** The text fields of a multipart enquiry together, as for a JSON one. */
export const PHOTO_TEXT_MAX_BYTES = 32 * 1024;
/** The whole multipart body: every photo at its cap, the text fields, and the multipart framing. */
export const PHOTO_BODY_MAX_BYTES = PHOTO_MAX_COUNT * PHOTO_MAX_BYTES + PHOTO_TEXT_MAX_BYTES + 64 * 1024;

/** Multipart enquiries the server receives at once per process; beyond it 503 with Retry-After (each may put 60 MB on disk). */
export const MAX_CONCURRENT_UPLOADS = 4;

/** `3.4 MB`, `820 KB`: a file's size as the form shows it (decimal units, as phones show them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} KB`;
}
