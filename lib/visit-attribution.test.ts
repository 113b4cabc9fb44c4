import { afterEach, describe, expect, it } from 'vitest';
import { attributionFor, campaignTag, cleanAttribution, referrerOrigin, sitePath, sourceOf } from '@/lib/visit-attribution';
import { forgetLanding, recordLanding } from '@/lib/visit-landing';

afterEach(() => forgetLanding());

describe('the landing of a visit', () => {
  it('keeps the path, the referring site’s origin and the campaign tags, nothing else of the URLs', () => {
    recordLanding(
      'https://www.example.com/services/water-damage?utm_source=google&utm_medium=cpc&utm_campaign=burst%20pipes&gclid=abc#top',
      'https://www.google.com/search?q=water+damage+glasgow',
    );
    expect(attributionFor('/contact')).toEqual({
      sentFrom: '/contact',
      landingPage: '/services/water-damage',
      referrer: 'https://www.google.com',
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'burst pipes',
    });
  });

  it('records no referrer for the site itself or for none', () => {
    recordLanding('https://www.example.com/about', 'https://www.example.com/');
    expect(attributionFor('/contact').referrer).toBe('');
    forgetLanding();
    recordLanding('https://www.example.com/about', '');
    expect(attributionFor('/contact')).toMatchObject({ landingPage: '/about', referrer: '' });
  });
});

describe('a visit', () => {
  it('keeps its first landing across the site’s client-side navigation', () => {
    recordLanding('https://www.example.com/services/fire-smoke?utm_source=newsletter', 'https://mail.example.net/');
    recordLanding('https://www.example.com/contact', 'https://www.example.com/services/fire-smoke');
    expect(attributionFor('/contact')).toEqual({
      sentFrom: '/contact',
      landingPage: '/services/fire-smoke',
      referrer: 'https://mail.example.net',
      utmSource: 'newsletter',
      utmMedium: '',
      utmCampaign: '',
    });
  });

  it('says only where the form was sent from when no landing was recorded', () => {
    expect(attributionFor('/contact')).toEqual({
      sentFrom: '/contact',
      landingPage: '',
      referrer: '',
      utmSource: '',
      utmMedium: '',
      utmCampaign: '',
    });
  });
});

describe('what the server keeps of what a client sends', () => {
  it('keeps site paths only', () => {
    expect(sitePath('/services/storm-weather')).toBe('/services/storm-weather');
    for (const bad of [
      '//evil.example/x',
      'https://evil.example/',
      '/contact?x=1',
      '/a b',
      '/\u0000',
      'contact',
      '/' + 'a'.repeat(200),
      42,
      null,
    ]) {
      expect(sitePath(bad), String(bad)).toBe('');
    }
  });

  it('keeps the origin of an http(s) referrer and nothing else', () => {
    expect(referrerOrigin('https://www.bing.com/search?q=x')).toBe('https://www.bing.com');
    expect(referrerOrigin('http://localhost:3000/a')).toBe('http://localhost:3000');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'not a url', '', 'x'.repeat(3000), {}])
      expect(referrerOrigin(bad)).toBe('');
  });

  it('makes campaign tags one plain line of at most 100 characters', () => {
    expect(campaignTag('  spring\r\nsale\u0007 ')).toBe('spring sale');
    expect(campaignTag('x'.repeat(10_000))).toHaveLength(100);
    expect(campaignTag(['array'])).toBe('');
  });

  it('cleans every field, whatever arrives', () => {
    expect(cleanAttribution({ sentFrom: '/contact', landingPage: 'javascript:x', referrer: 'https://t.co/abc', utmSource: 5 })).toEqual({
      sentFrom: '/contact',
      landingPage: '',
      referrer: 'https://t.co',
      utmSource: '',
      utmMedium: '',
      utmCampaign: '',
    });
  });
});

describe('sourceOf', () => {
  it('prefers the campaign source, then the referring host, then says it is not known', () => {
    expect(sourceOf({ utmSource: 'google', utmMedium: 'cpc', referrer: 'https://www.google.com' })).toBe('google / cpc');
    expect(sourceOf({ utmSource: 'flyer' })).toBe('flyer');
    expect(sourceOf({ referrer: 'https://www.google.com' })).toBe('www.google.com');
    expect(sourceOf({ referrer: null, utmSource: null })).toBe('direct or unknown');
  });
});

describe('a claim link’s token', () => {
  it('never reaches the landing page or the page sent from: the path is kept without it', async () => {
    const token = '42.AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    expect(cleanAttribution({ sentFrom: `/claim-update/${token}`, landingPage: `/track/${token}` })).toMatchObject({
      sentFrom: '/claim-update/',
      landingPage: '/track/',
    });
    expect(sitePath(`/api/claims/photos/${token}`)).toBe('/api/claims/photos/');
    expect(sitePath('/claims/HC-ABC-DEF/photos')).toBe('/claims/HC-ABC-DEF/photos');
    // Every path the proxies cut a token from (lib/claim-paths.mjs), any letter case.
    expect(sitePath(`/verify/HC-YVG-Y5S-E2.${token.split('.')[1]}`)).toBe('/verify/');
    expect(sitePath('/portfolio/open/x7Qp2L-8vZ_abcdefghijklmnopqrstuvwxyz0123')).toBe('/portfolio/open/');
    expect(sitePath(`/TRACK/${token}`)).toBe('/TRACK/');
    expect(sitePath('/track')).toBe('/track');
    expect(sitePath('/claims/HC-ABC-DEF')).toBe('/claims/HC-ABC-DEF');
  });

  it('never reaches an enquiry from a visit that landed on a link and was referred by one', () => {
    const token = '42.AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    recordLanding(`https://www.example.com/track/${token}?utm_source=mail`, `https://www.example.com/claim-update/${token}`);
    const fromTheSite = attributionFor('/contact');
    expect(fromTheSite).toEqual({
      sentFrom: '/contact',
      landingPage: '/track/',
      referrer: '',
      utmSource: 'mail',
      utmMedium: '',
      utmCampaign: '',
    });
    forgetLanding();
    recordLanding(`https://www.example.com/claim-update/${token}`, `https://webmail.example.net/read/claim-update/${token}?token=${token}`);
    const fromAMailClient = attributionFor(`/track/${token}`);
    expect(fromAMailClient).toMatchObject({ sentFrom: '/track/', landingPage: '/claim-update/', referrer: 'https://webmail.example.net' });
    expect(JSON.stringify([fromTheSite, fromAMailClient])).not.toContain(token.split('.')[1]);
  });
});
