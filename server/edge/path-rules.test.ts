import { describe, expect, it } from 'vitest';
import { LARGEST_BODY_BYTES } from '@/lib/enquiry-rules.mjs';
import { CLAIM_FORM_MAX_BYTES } from '@/server/edge/claim-page-rules.mjs';
import { bodyRuleOf, pathHeaders, PATH_RULES, takesBody, withDecodablePath } from '@/server/edge/path-rules.mjs';
import { UPLOAD_PATHS } from '@/server/edge/upload-gate.mjs';

describe('the table of path rules', () => {
  it('names each rule once', () => {
    const names = PATH_RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every upload path of the upload door a rule that takes the largest enquiry', () => {
    for (const upload of UPLOAD_PATHS) {
      const rule = PATH_RULES.find((candidate) => candidate.name === upload.name);
      expect(rule?.body?.takes).toMatch(/upload/);
      expect(rule?.body?.maxBytes).toBe(LARGEST_BODY_BYTES);
    }
  });

  it('finds the rule for a body by path', () => {
    const cases: [string, string | undefined][] = [
      ['/api/contact', 'contact-api'],
      ['/contact', 'contact-page'],
      ['/claims/HC-1234/photos', 'later-photos'],
      ['/claims/HC-1234/update', 'claim-form'],
      ['/track', 'claim-form'],
      ['/insurers', 'insurers-page'],
      ['/insurers/more', undefined],
      ['/portfolio', 'portfolio-form'],
      ['/portfolio/claims.csv', undefined],
      ['/portfolio/open/abc', undefined],
      ['/api/claims/photos/12.abc', 'retired-later-photos'],
      ['/claims/HC-1234', 'claim-form'],
      ['/claims//photos', undefined],
      ['/claims/a/b/photos', undefined],
      ['/track/12.abc', undefined],
      ['/contact/more', undefined],
      ['/api/other', undefined],
    ];
    for (const [pathname, name] of cases) expect(bodyRuleOf(pathname)?.name, pathname).toBe(name);
    expect(takesBody('/contact')).toBe(true);
    expect(takesBody('/about')).toBe(false);
  });

  it('says what a claim form may bring, and what answers a retired address', () => {
    expect(bodyRuleOf('/track')?.body).toEqual({
      takes: 'small-form',
      allow: ['POST', 'GET', 'HEAD'],
      mediaType: 'multipart/form-data',
      maxBytes: CLAIM_FORM_MAX_BYTES,
      answers: 'text',
    });
    expect(bodyRuleOf('/api/claims/photos/x')?.body.takes).toBe('gone');
  });

  it('puts no-store and no-referrer on a signed link, same-origin on the page it opens', () => {
    expect(pathHeaders('/track/12.abc')).toEqual({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    expect(pathHeaders('/claims/HC-1234/update')['Referrer-Policy']).toBe('same-origin');
    expect(pathHeaders('/api/enquiry-photos/abc')).toEqual({ 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' });
    expect(pathHeaders('/contact')).toEqual({});
  });

  it('treats the portfolio link as a signed link, the portfolio and its CSV as the pages it opens, and the page’s buttons as a small form', () => {
    expect(pathHeaders('/portfolio/open/12.abc')).toEqual({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    for (const page of ['/portfolio', '/portfolio/claims.csv'])
      expect(pathHeaders(page), page).toEqual({
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'same-origin',
        'X-Robots-Tag': 'noindex, nofollow',
      });
    for (const other of ['/portfolio/open/', '/portfolio/open/12.abc/x', '/portfolios', '/portfolio/other.csv'])
      expect(pathHeaders(other), other).toEqual({});
    // Its buttons are a small form posted to the page itself; the CSV and the link take none.
    expect(takesBody('/portfolio')).toBe(true);
    expect(bodyRuleOf('/portfolio')?.body).toMatchObject({ takes: 'small-form', mediaType: 'multipart/form-data' });
    for (const none of ['/portfolio/claims.csv', '/portfolio/open/12.abc']) expect(takesBody(none), none).toBe(false);
  });
});

describe('a request target whose percent-encoding does not decode', () => {
  it('has the `%` of each such path segment escaped, and nothing else changed', () => {
    expect(withDecodablePath('/claims/%E0%A4%A')).toBe('/claims/%25E0%25A4%25A');
    expect(withDecodablePath('/claims/%FF/photos?x=%FF')).toBe('/claims/%25FF/photos?x=%FF');
    expect(withDecodablePath('/track/ab%2')).toBe('/track/ab%252');
    for (const untouched of ['/claims/%25', '/claims/HC-ABC-DEF/update', '/claims/..%2F', '/gallery?q=%E0%A4%A', '/', '/%C3%A9t%C3%A9'])
      expect(withDecodablePath(untouched)).toBe(untouched);
    expect(withDecodablePath(undefined)).toBeUndefined();
  });
});
