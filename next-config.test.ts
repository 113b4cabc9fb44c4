import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import config from '@/next.config';
import { LARGEST_BODY_BYTES } from '@/lib/enquiry-rules.mjs';

// The parser Next reads a size limit with (a number as bytes; '58mb' as 58 MiB).
const bytes = createRequire(import.meta.url)('next/dist/compiled/bytes') as { parse: (value: string | number) => number | null };

describe('next.config', () => {
  it('takes the whole contact form posted without JavaScript, photos included, as a server action', () => {
    const limit = config.experimental?.serverActions?.bodySizeLimit;
    expect(limit).toBeDefined();
    expect(bytes.parse('58mb')).toBe(58 * 1024 * 1024);
    const limitBytes = bytes.parse(limit!);
    expect(limitBytes).toBeGreaterThanOrEqual(LARGEST_BODY_BYTES);
    // No more than the largest enquiry either: a body server.mjs would refuse, Next would not take.
    expect(limitBytes).toBe(LARGEST_BODY_BYTES);
  });

  it('lets the proxy hold no copy of a body', () => {
    expect(config.experimental?.proxyClientMaxBodySize).toBe(1);
  });
});
