import { business } from '@/content/business';

export const hero = {
  headline: 'Expert Insurance Repairs',
  subline: 'Minimal Disruption',
  intro: `Water, storm, fire and accidental damage put right by our own directly employed tradesmen. Appointed by insurers, loss adjusters and repair networks across Glasgow and the central belt for over ${business.yearsExperience} years.`,
  cta: { label: 'Learn More', href: '/about' },
} as const;

export const fleetImage = {
  src: '/images/fleet-placeholder.svg',
  width: 960,
  height: 600,
  alt: 'One of our liveried vans, ready to attend a repair (placeholder illustration)',
} as const;

type Highlight = { title: string; text: string };

/** The three highlights, in this order: 30+ Years, Insurance Specialists, Right First Time. */
export const highlights: readonly Highlight[] = [
  {
    title: '30+ Years',
    text: `More than ${business.yearsExperience} years of repairing homes after insurance claims, from a single burst pipe to a full rebuild after fire.`,
  },
  {
    title: 'Insurance Specialists',
    text: 'We work with insurers, loss adjusters and repair networks every day, and we speak their language so you do not have to.',
  },
  {
    title: 'Right First Time',
    text: 'Our tradesmen are directly employed, not subcontracted, so the people who start your repair are the people who finish it, properly.',
  },
];

export const commitment = {
  title: 'Our commitment to you',
  text: 'A damaged home is stressful enough. We promise a named contact for your claim, tradesmen who arrive when we say they will, a clean and safe site every evening, and a finish that matches the rest of your home. We are not done until you are happy with the repair.',
} as const;

/** The home page's section headings and calls to action around the content above. */
export const homePage = {
  heroCtaContext: ' about us and how a claim works',
  highlightsHeading: 'Why homeowners and insurers choose us',
  servicesHeading: 'What we repair',
  testimonialsHeading: 'What our customers say',
  enquiryLabel: 'Send us an enquiry',
} as const;

/** "Call 0141 …": every call button's text. */
export const callLabel = (phone: string) => `Call ${phone}`;
