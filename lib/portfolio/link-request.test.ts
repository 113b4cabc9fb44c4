// The one schema of "Your claims with us": an address as typed, refused when folding would make it another's.
import { describe, expect, it } from 'vitest';
import { portfolioRequestText as text } from '@/content/portfolio-request';
import { foldsToItself, parseLinkRequest } from '@/lib/portfolio/link-request';

describe('the link request’s address', () => {
  it('takes an ordinary address, in any case, and names within it', () => {
    expect(parseLinkRequest({ email: '  Ann.Adjuster+claims@ClaimsDirect.example ' })).toEqual({
      ok: true,
      email: 'Ann.Adjuster+claims@ClaimsDirect.example',
    });
    expect(parseLinkRequest({ email: 'zoë@adjusters.example' })).toEqual({ ok: true, email: 'zoë@adjusters.example' });
    expect(parseLinkRequest({ email: 'ÉLODIE@adjusters.example' }).ok).toBe(true);
  });

  it('refuses an address that Unicode folding changes, with words that say why', () => {
    for (const squatter of ['ſam@adjusters.example', 'ｓam@adjusters.example', 'sam@ａdjusters.example', 'ﬁona@adjusters.example'])
      expect(parseLinkRequest({ email: squatter }), squatter).toEqual({ ok: false, error: text.folded });
    expect(text.folded).toBe('Type your address in plain letters: it has a character that reads as another (such as ſ for s)');
    expect(foldsToItself('sam@adjusters.example')).toBe(true);
    expect(foldsToItself('ſam@adjusters.example')).toBe(false);
  });

  it('still says an address is malformed or too long first', () => {
    expect(parseLinkRequest({ email: 'ſam-at-nowhere' })).toEqual({ ok: false, error: text.invalid });
    expect(parseLinkRequest({ email: `${'a'.repeat(250)}@x.example` })).toEqual({ ok: false, error: text.tooLong });
  });
});
