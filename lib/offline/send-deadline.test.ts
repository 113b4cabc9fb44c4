// How long the service worker waits for one send: never less than the server waits for the same body
// at the slowest rate it takes, and never for ever.
import { describe, expect, it } from 'vitest';
import {
  ENQUIRY_TEXT_MAX_BYTES,
  LARGEST_BODY_BYTES,
  MULTIPART_FRAMING_BYTES,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_COUNT,
} from '@/lib/enquiry-rules.mjs';
import { sendDeadlineMs } from '@/lib/offline/send-deadline';
import { bodyDeadlineMs } from '@/server/edge/server-limits.mjs';

describe('sendDeadlineMs', () => {
  it('gives a claim without photos the server’s grace, its text at 16 KB/s and a minute for the answer', () => {
    expect(sendDeadlineMs(0)).toBe(30_000 + ((ENQUIRY_TEXT_MAX_BYTES + MULTIPART_FRAMING_BYTES) * 1000) / 16_000 + 60_000);
  });

  it('waits for a body as long as the server does, then a minute more, for any size of photos', () => {
    for (const photos of [1_000, 4_400_000, PHOTO_MAX_BYTES, PHOTO_MAX_COUNT * PHOTO_MAX_BYTES]) {
      const body = photos + ENQUIRY_TEXT_MAX_BYTES + MULTIPART_FRAMING_BYTES;
      expect(sendDeadlineMs(photos)).toBe(bodyDeadlineMs(body) + 60_000);
    }
    // Six full-size photos at 16 KB/s: a little over an hour, and still ended.
    expect(sendDeadlineMs(PHOTO_MAX_COUNT * PHOTO_MAX_BYTES)).toBe(bodyDeadlineMs(LARGEST_BODY_BYTES) + 60_000);
    expect(sendDeadlineMs(PHOTO_MAX_COUNT * PHOTO_MAX_BYTES)).toBeLessThan(67 * 60_000);
  });

  it('never waits past the server’s ceiling and a minute, however large a body claims to be', () => {
    expect(sendDeadlineMs(10 * LARGEST_BODY_BYTES)).toBe(65 * 60_000 + 60_000);
  });
});
