/**
 * Every business fact the site shows, in one place.
 *
 * PLACEHOLDERS: the company has not yet given its name, address, e-mail,
 * coordinates, price range or site builder. The values below are deliberately
 * obvious stand-ins (telephone in Ofcom's drama range, e-mail at example.com)
 * for the company to replace before launch. The layout, footer, JSON-LD,
 * contact page, sitemap page and 404 page all read this module.
 */

import type { ResponseMeasure } from '@/lib/insurer-times';

type OpeningHours = {
  days: readonly ('Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday')[];
  opens: string;
  closes: string;
  /** The clock the hours are kept by; working time for the response standards is counted in it. */
  timeZone: 'Europe/London';
  label: string;
};

export type Business = {
  name: string;
  legalName: string;
  /** The company's registration as its documents print it (the drying statement and certificate). */
  registration: string;
  tagline: string;
  description: string;
  yearsExperience: number;
  phone: { display: string; e164: string };
  /** The line answered at any hour for emergencies (water still coming in, a home nobody can stay in). */
  emergencyPhone: { display: string; e164: string };
  email: string;
  address: {
    lines: readonly [string, string, string];
    street: string;
    locality: string;
    region: string;
    postcode: string;
    country: 'GB';
  };
  geo: { latitude: number; longitude: number };
  openingHours: OpeningHours;
  priceRange: string;
  areasServed: readonly string[];
  serviceAreaSummary: string;
  builderCredit: { name: string; url: string };
  copyrightYear: number;
  safetyAccreditationUrl: string;
  /** Public profiles (Google Business Profile, Facebook, Checkatrade…): schema.org `sameAs`; none is published while empty. */
  profiles: readonly string[];
  /** What insurers and loss adjusters are promised; shown on /insurers. */
  forInsurers: InsurerStandards;
};

type InsurerStandards = {
  /** True until the company has confirmed every value below; the page then says they are to be confirmed. */
  placeholder: boolean;
  /** Where instructions go; an enquiry through the site reaches the same office. */
  instructionsEmail: string;
  /**
   * Response standards, each a promise and its measure. `measure` is the promise as the claim's stages
   * can show it (lib/insurer-times.ts): only a standard with one is stamped against on an instruction's
   * status page, so none may claim more than `detail` says.
   */
  responseStandards: readonly { term: string; detail: string; measure?: ResponseMeasure }[];
  /** Where the company takes instructions. */
  coverage: string;
};

export const business: Business = {
  name: 'Example Homecare',
  legalName: 'Example Homecare Ltd',
  registration: 'Registered in Scotland, company number SC000000',
  tagline: 'Expert insurance repairs with minimal disruption',
  description:
    'Insurance repair and home maintenance contractor based in Cumbernauld. For over 30 years our directly employed tradesmen have restored homes across Glasgow and the central belt of Scotland after water, storm, fire, impact and malicious damage, working with insurers, loss adjusters and repair networks.',
  yearsExperience: 30,
  phone: { display: '0141 496 0123', e164: '+441414960123' },
  emergencyPhone: { display: '0141 496 0999', e164: '+441414960999' },
  email: 'enquiries@example.com',
  address: {
    lines: ['Unit 0, Example Business Park', 'Cumbernauld', 'G67 0XX'],
    street: 'Unit 0, Example Business Park',
    locality: 'Cumbernauld',
    region: 'North Lanarkshire',
    postcode: 'G67 0XX',
    country: 'GB',
  },
  geo: { latitude: 55.9457, longitude: -3.9925 },
  openingHours: {
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    opens: '08:00',
    closes: '17:00',
    timeZone: 'Europe/London',
    label: 'Monday to Friday, 08:00 to 17:00',
  },
  priceRange: '££',
  areasServed: [
    'Glasgow',
    'Cumbernauld',
    'Kilsyth',
    'Falkirk',
    'Stirling',
    'Motherwell',
    'Hamilton',
    'East Kilbride',
    'Paisley',
    'Edinburgh',
  ],
  serviceAreaSummary: 'Glasgow, North Lanarkshire and the central belt of Scotland, from Paisley to Edinburgh.',
  builderCredit: { name: 'Example Web Studio', url: 'https://example.com/' },
  copyrightYear: 2025,
  safetyAccreditationUrl: 'https://www.safecontractor.com/',
  profiles: [],
  // PLACEHOLDERS: plausible industry standards, not the company's; replace each with its own figure and
  // set `placeholder: false`.
  forInsurers: {
    placeholder: true,
    instructionsEmail: 'instructions@example.com',
    responseStandards: [
      // The acknowledgement and the make-safe have no stage of their own to measure them by.
      { term: 'Instruction acknowledged', detail: 'Within 2 working hours' },
      {
        term: 'First contact with the policyholder',
        detail: 'Within 4 working hours',
        measure: { from: 'received', to: 'contacted', within: { workingHours: 4 } },
      },
      { term: 'Emergency make-safe attendance', detail: 'Within 24 hours, every day of the year' },
      { term: 'Survey visit', detail: 'Within 2 working days', measure: { from: 'received', to: 'surveyed', within: { workingDays: 2 } } },
      {
        term: 'Report and reinstatement schedule',
        detail: 'Within 2 working days of the survey',
        measure: { from: 'surveyed', to: 'with-insurer', within: { workingDays: 2 } },
      },
    ],
    coverage:
      'Glasgow, North and South Lanarkshire, East and West Dunbartonshire, Renfrewshire, Falkirk, Stirling, West Lothian and Edinburgh: the whole central belt of Scotland.',
  },
};
