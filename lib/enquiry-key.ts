/**
 * An enquiry's key: a random id the form makes once per enquiry (kept in its draft) and sends with every
 * try, so the server answers a retry with the first try's answer whatever address it comes from (a
 * phone that moved from Wi-Fi to mobile between tries). Made with getRandomValues, which browsers offer
 * on plain HTTP too (randomUUID needs a secure context).
 */
export const ENQUIRY_KEY_FIELD = 'enquiryKey';

/** 16 random bytes, base64url: 22 characters. */
export function newEnquiryKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  // 16 bytes are 24 base64 characters, the last two padding.
  return btoa(binary).slice(0, 22).replace(/\+/g, '-').replace(/\//g, '_');
}

/** What the form sends; anything else is not a key (and the server falls back to comparing content). */
export const isEnquiryKey = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);
