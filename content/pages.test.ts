import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sitePages } from '@/content/pages';
import { primaryNav, footerNav } from '@/content/navigation';
import { business } from '@/content/business';

describe('page metadata', () => {
  const entries = sitePages;

  it('gives every page a unique title and description', () => {
    expect(new Set(entries.map((page) => page.title)).size).toBe(entries.length);
    expect(new Set(entries.map((page) => page.description)).size).toBe(entries.length);
  });

  it('covers the nine main routes (the claim look-up too), the page for insurers and a page per service', () => {
    expect(entries.map((page) => page.path).sort()).toEqual(
      [
        '/',
        '/about',
        '/contact',
        '/gallery',
        '/health-safety',
        '/privacy',
        '/services',
        '/sitemap',
        '/track',
        '/insurers',
        '/services/water-damage',
        '/services/storm-weather',
        '/services/fire-smoke',
        '/services/vandalism-malicious',
        '/services/impact-accidental',
        '/services/claims-support',
      ].sort(),
    );
  });

  it('gives the new pages social images of their own that exist', () => {
    for (const page of entries.filter((entry) => entry.path.startsWith('/services/') || entry.path === '/insurers')) {
      expect(page.image?.path, page.path).toMatch(/^\/og\/.+\.png$/);
      expect(existsSync(`public${page.image!.path}`), page.image!.path).toBe(true);
    }
  });

  it('keeps descriptions within what search results show', () => {
    for (const page of entries) {
      expect(page.description.length).toBeGreaterThan(50);
      expect(page.description.length).toBeLessThanOrEqual(200);
    }
  });
});

describe('navigation', () => {
  it('lists the five main links in order', () => {
    expect(primaryNav.map((link) => [link.label, link.href])).toEqual([
      ['Home', '/'],
      ['About Us', '/about'],
      ['Services', '/services'],
      ['Gallery', '/gallery'],
      ['Contact', '/contact'],
    ]);
  });

  it('lists the three policy and sitemap footer links, after the page for insurers', () => {
    expect(footerNav.map((link) => [link.label, link.href])).toEqual([
      ['For Insurers and Loss Adjusters', '/insurers'],
      ['Health and Safety Policy', '/health-safety'],
      ['Privacy Policy', '/privacy'],
      ['Site Map', '/sitemap'],
    ]);
  });
});

describe('business facts', () => {
  it('uses placeholder contact details from the reserved ranges', () => {
    expect(business.phone.e164).toMatch(/^\+44141496(0\d{3})$/);
    expect(business.email).toMatch(/@example\.com$/);
  });

  it('has a Ltd legal name and a three-line Cumbernauld address', () => {
    expect(business.legalName).toMatch(/ Ltd$/);
    expect(business.address.lines).toHaveLength(3);
    expect(business.address.lines.join(' ')).toContain('Cumbernauld');
  });

  it('opens Monday to Friday 08:00-17:00', () => {
    expect(business.openingHours).toMatchObject({
      days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      opens: '08:00',
      closes: '17:00',
    });
  });
});
