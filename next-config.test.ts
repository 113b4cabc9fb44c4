import { describe, expect, it } from 'vitest';
import config from '@/next.config';
import { PHOTO_BODY_MAX_BYTES } from '@/lib/contact-fields';

describe('next.config', () => {
  it('takes the whole contact form posted without JavaScript, photos included, as a server action', () => {
    const limit = config.experimental?.serverActions?.bodySizeLimit;
    // Next reads "58mb" as 58 MiB.
    const mebibytes = /^(\d+)mb$/i.exec(String(limit));
    expect(mebibytes).not.toBeNull();
    expect(Number(mebibytes![1]) * 1024 * 1024).toBeGreaterThanOrEqual(PHOTO_BODY_MAX_BYTES);
  });

  it('lets the proxy hold no copy of a body', () => {
    expect(config.experimental?.proxyClientMaxBodySize).toBe(1);
  });
});
