import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aboutIntro, claimSteps } from '@/content/about';
import { accreditations } from '@/content/accreditations';
import { business } from '@/content/business';
import { healthSafetyIntro, policyDocument, safetyCommitments } from '@/content/health-safety';
import { commitment, fleetImage, hero, highlights } from '@/content/home';
import { defaultSocialImage } from '@/content/pages';
import { privacySections } from '@/content/privacy';
import { serviceGroups, services } from '@/content/services';
import { testimonials } from '@/content/testimonials';

const publicFile = (path: string) => `public${path}`;

describe('accreditations', () => {
  it('lists the ten schemes, in their order', () => {
    expect(accreditations.map((accreditation) => accreditation.name)).toEqual([
      'CRB Checked',
      'SEPA Approved',
      'Select Contractor',
      'TrustMark',
      'CGF Approved',
      'ConstructionLine',
      'FMB Member',
      'Safe Contractor',
      'Gas Safe',
      'CHAS',
    ]);
  });

  it('gives each a unique id, a real description, a placeholder logo that exists and an https website when it has one', () => {
    expect(new Set(accreditations.map((accreditation) => accreditation.id)).size).toBe(10);
    for (const accreditation of accreditations) {
      expect(accreditation.description.length).toBeGreaterThan(80);
      expect(accreditation.logo).toMatch(/^\/accreditations\/[a-z-]+-placeholder\.svg$/);
      expect(existsSync(publicFile(accreditation.logo)), accreditation.logo).toBe(true);
      if (accreditation.website !== undefined) expect(accreditation.website).toMatch(/^https:\/\/[^/]+\//);
    }
  });
});

describe('services', () => {
  it('has the six titles exactly, each with a real description', () => {
    expect(services.map((service) => service.title)).toEqual([
      'Water Damage Restoration',
      'Storm & Weather Damage',
      'Fire & Smoke Damage',
      'Vandalism & Malicious Damage',
      'Impact & Accidental Damage',
      'Insurance Claims Support',
    ]);
    for (const service of services) {
      expect(service.summary.length).toBeGreaterThan(120);
      expect(service.includes.length).toBeGreaterThanOrEqual(3);
      expect(service.id).toMatch(/^[a-z-]+$/);
    }
  });

  it('groups the trades as restoration, building and specialist for the sitemap page', () => {
    expect(serviceGroups.map((group) => group.id)).toEqual(['restoration', 'building', 'specialist']);
    for (const group of serviceGroups) expect(group.items.length).toBeGreaterThanOrEqual(3);
  });
});

describe('home page copy', () => {
  it('has the hero, three highlights in order and a fleet image that exists', () => {
    expect([hero.headline, hero.subline, hero.cta.label, hero.cta.href]).toEqual([
      'Expert Insurance Repairs',
      'Minimal Disruption',
      'Learn More',
      '/about',
    ]);
    expect(highlights.map((highlight) => highlight.title)).toEqual(['30+ Years', 'Insurance Specialists', 'Right First Time']);
    expect(fleetImage.src).toContain('placeholder');
    expect(existsSync(publicFile(fleetImage.src))).toBe(true);
    expect(commitment.text.length).toBeGreaterThan(80);
  });

  it('has three testimonials with a quote, a customer name and a town', () => {
    expect(testimonials).toHaveLength(3);
    for (const testimonial of testimonials) {
      expect(testimonial.quote.length).toBeGreaterThan(60);
      expect(testimonial.customerName).not.toBe('');
      expect(testimonial.town).not.toBe('');
    }
  });
});

describe('about, health and safety and privacy copy', () => {
  it('describes the claim: appointment, survey with reinstatement schedule, payment less the excess', () => {
    const text = claimSteps.map((step) => step.text).join(' ');
    expect(text).toMatch(/appoints us, either directly or through their repair network/);
    expect(text).toMatch(/inspects and photographs the damage, establishes the cause and prepares a detailed reinstatement schedule/);
    expect(text).toMatch(/pays the repair costs, less any excess/);
    expect(aboutIntro.join(' ')).toContain(`${business.yearsExperience} years`);
  });

  it('has the four safety commitments and a policy PDF that exists', () => {
    expect(safetyCommitments.map((item) => item.title)).toEqual([
      'Personal protective equipment',
      'Regular training',
      'Risk assessments',
      'Safe Contractor accreditation',
    ]);
    expect(healthSafetyIntro.length).toBeGreaterThan(0);
    const pdf = readFileSync(publicFile(policyDocument.href));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('has the five privacy sections in order, with the £10 data-request payment', () => {
    expect(privacySections.map((section) => section.title)).toEqual([
      'Who we are',
      'What information we collect',
      'What we do with your information',
      'Your Rights',
      'Other Websites',
    ]);
    const rights = privacySections.find((section) => section.id === 'your-rights')!;
    expect(rights.paragraphs.join(' ')).toMatch(/write to us .* administration payment of £10/);
  });

  it('has no filler text anywhere', () => {
    const everything = JSON.stringify([
      aboutIntro,
      claimSteps,
      accreditations,
      services,
      serviceGroups,
      testimonials,
      highlights,
      commitment,
      healthSafetyIntro,
      safetyCommitments,
      privacySections,
    ]);
    expect(everything).not.toMatch(/lorem|ipsum|TODO|TBD/i);
  });
});

describe('social image', () => {
  it('is a 1200x630 PNG that exists', () => {
    const png = readFileSync(publicFile(defaultSocialImage.path));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });
});
