import { describe, expect, it } from 'vitest';
import { RESPONSE_REASONS, responseReason } from './contact-response.mjs';

describe('the reason of an answer', () => {
  it('reads each known reason from a body', () => {
    for (const reason of RESPONSE_REASONS) expect(responseReason({ success: false, message: 'Whatever the words', reason })).toBe(reason);
  });

  it('has none for a success, an unknown reason or a body that is not the site’s', () => {
    for (const body of [
      { success: true },
      { success: false, reason: 'teapot' },
      { reason: ['busy'] },
      '<html>502</html>',
      null,
      undefined,
    ]) {
      expect(responseReason(body)).toBeUndefined();
    }
  });
});
