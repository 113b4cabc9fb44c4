import { describe, expect, it } from 'vitest';
import { CONTACT_MAX, CONTACT_MESSAGES, EMAIL_PATTERN } from '@/lib/contact-rules';
import { schemaErrors } from '@/lib/contact-schema';

const emailError = (email: string) => schemaErrors({ name: 'Jo', email, subject: 'Roof leak', message: 'Water is coming in.' }).email;

// The spec's "simple {email} pattern" as first written; it backtracks quadratically, so it is kept
// here only to prove the linear-time rewrite accepts exactly the same strings.
// eslint-disable-next-line regexp/no-super-linear-backtracking -- the point: it is the quadratic original
const ORIGINAL_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function* allStrings(alphabet: string[], maxLength: number): Generator<string> {
  for (let length = 0; length <= maxLength; length += 1) {
    const indices = new Array<number>(length).fill(0);
    for (;;) {
      yield indices.map((index) => alphabet[index]).join('');
      let position = length - 1;
      while (position >= 0 && indices[position] === alphabet.length - 1) indices[position--] = 0;
      if (position < 0) break;
      indices[position]! += 1;
    }
  }
}

describe('the e-mail pattern', () => {
  it('accepts exactly what the original pattern accepts, for every string of up to 8 characters over a@. and space', () => {
    let compared = 0;
    for (const candidate of allStrings(['a', '@', '.', ' '], 8)) {
      compared += 1;
      if (EMAIL_PATTERN.test(candidate) !== ORIGINAL_EMAIL_PATTERN.test(candidate))
        throw new Error(`differs on ${JSON.stringify(candidate)}`);
    }
    expect(compared).toBe((4 ** 9 - 1) / 3);
  });

  it('keeps the everyday cases', () => {
    for (const good of ['jo@example.com', 'a@b.c', 'jo.bloggs+roof@mail.example.co.uk', 'x@.b.c', 'x@b..c'])
      expect(EMAIL_PATTERN.test(good), good).toBe(true);
    for (const bad of ['jo@example', 'jo@.com', 'jo@com.', 'jo example@x.com', 'jo@@x.com', '@x.com', 'jo@x.com@'])
      expect(EMAIL_PATTERN.test(bad), bad).toBe(false);
  });

  it('checks the length before the pattern: an over-long address gets the length message', () => {
    const attack = `a@${'.'.repeat(32_000)}@`;
    expect(emailError(attack)).toBe(CONTACT_MESSAGES.emailMax);
    expect(emailError(`a@${'.'.repeat(CONTACT_MAX.email - 3)}@`)).toBe(CONTACT_MESSAGES.email);
  });
});
