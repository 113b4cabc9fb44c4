// The one list of paths whose next segment is a secret token, and the redaction written out beside it.
import { describe, expect, it } from 'vitest';
import { TOKEN_PATH_PREFIXES, VERIFY_PREFIX, withoutLinkTokens } from '@/lib/claim-paths.mjs';
import { PORTFOLIO_LINK_PREFIX } from '@/lib/portfolio/portfolio-paths.mjs';

const SIGNATURE = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('the token paths', () => {
  it('name the portfolio link and the verification page as their own modules do', () => {
    expect(TOKEN_PATH_PREFIXES).toContain(PORTFOLIO_LINK_PREFIX);
    expect(TOKEN_PATH_PREFIXES).toContain(VERIFY_PREFIX);
  });

  it('each have their token cut, in any letter case, the prefix and what follows the segment kept', () => {
    for (const prefix of TOKEN_PATH_PREFIXES) {
      expect(withoutLinkTokens(`GET ${prefix}anything-at-all?x=1`), prefix).toBe(`GET ${prefix}?x=1`);
      expect(withoutLinkTokens(`${prefix.toUpperCase()}secret/more`), prefix).toBe(`${prefix.toUpperCase()}/more`);
    }
    expect(withoutLinkTokens('/claims/HC-ABC-DEF and /tracking/keep')).toBe('/claims/HC-ABC-DEF and /tracking/keep');
  });

  it('cut a claim link’s or a document’s token standing alone, and nothing like one', () => {
    expect(withoutLinkTokens(`link 42.${SIGNATURE} and document HC-YVG-Y5S-E12.${SIGNATURE}.`)).toBe('link  and document .');
    for (const kept of [`42.${SIGNATURE}x`, `x42.${SIGNATURE}`, `HC-YVG-Y5S-E0.${SIGNATURE}`, '42.short'])
      expect(withoutLinkTokens(kept), kept).toBe(kept);
  });
});
