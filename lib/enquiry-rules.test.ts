import { describe, expect, it } from 'vitest';
import * as contactContent from '@/content/contact';
import * as rules from '@/lib/enquiry-rules.mjs';
import {
  ENQUIRY_TEXT_MAX_BYTES,
  LARGEST_BODY_BYTES,
  MULTIPART_FRAMING_BYTES,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_COUNT,
  UPLOAD_SLOTS,
} from '@/lib/enquiry-rules.mjs';

describe('the enquiry rules', () => {
  it('make the largest body of every photo at its cap, the text and the framing: the 60,098,304 bytes the docs and deploy/ quote', () => {
    expect(LARGEST_BODY_BYTES).toBe(PHOTO_MAX_COUNT * PHOTO_MAX_BYTES + ENQUIRY_TEXT_MAX_BYTES + MULTIPART_FRAMING_BYTES);
    // A change here is a change to the proxies' files (deploy/proxy-limits.test.ts), docs/security.md and docs/deploy.md.
    expect(LARGEST_BODY_BYTES).toBe(60_098_304);
  });

  it('are whole positive numbers, frozen', () => {
    for (const [name, value] of Object.entries(rules)) {
      const numbers = typeof value === 'number' ? [value] : Object.values(value);
      if (typeof value === 'object') expect(Object.isFrozen(value), name).toBe(true);
      for (const number of numbers) expect(Number.isSafeInteger(number) && number > 0, `${name}: ${number}`).toBe(true);
    }
    expect(UPLOAD_SLOTS.atMinimumRate).toBeLessThanOrEqual(UPLOAD_SLOTS.total);
  });

  it('are not written again in content/contact.ts, which holds words (a number there is a rule passed on as it is)', () => {
    const numeric = (value: unknown) =>
      typeof value === 'number' ||
      (typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((item) => typeof item === 'number'));
    for (const [name, value] of Object.entries(contactContent).filter(([, value]) => numeric(value)))
      expect(value, `content/contact.ts exports the number ${name}`).toBe((rules as Record<string, unknown>)[name]);
  });
});
