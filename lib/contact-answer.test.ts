import { describe, expect, it } from 'vitest';
import { ANSWER_REASONS, answerReason } from './contact-answer.mjs';

describe('the reason of an answer', () => {
  it('reads each known reason from a body', () => {
    for (const reason of ANSWER_REASONS) expect(answerReason({ success: false, message: 'Whatever the words', reason })).toBe(reason);
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
      expect(answerReason(body)).toBeUndefined();
    }
  });
});
