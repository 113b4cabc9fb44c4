import { claimsSupport } from '@/content/services/claims-support';
import { fireSmoke } from '@/content/services/fire-smoke';
import { impactAccidental } from '@/content/services/impact-accidental';
import type { Service } from '@/content/services/service';
import { stormWeather } from '@/content/services/storm-weather';
import { vandalismMalicious } from '@/content/services/vandalism-malicious';
import { waterDamage } from '@/content/services/water-damage';

/** The services page's own copy around the six cards. */
export const servicesPage = {
  title: 'Our Services',
  eyebrow: 'Insurance repairs and reinstatement',
  intro:
    'Whatever has happened to your home, our directly employed tradesmen make it safe, carry out the repair and deal with your insurer along the way. These are the six kinds of claim we handle every week across Glasgow and the central belt.',
  cta: {
    heading: 'Not sure whether your damage is covered?',
    text: 'Tell us what has happened and we will explain how the claim is likely to work, or arrange a survey for your insurer.',
    contactLabel: 'Contact us',
  },
} as const;

/** The six services, in the order and with the exact titles the site has always shown; each has its own module and page. */
export const services: readonly Service[] = [waterDamage, stormWeather, fireSmoke, vandalismMalicious, impactAccidental, claimsSupport];

export const serviceById = (id: string): Service | undefined => services.find((service) => service.id === id);

/** The service pages' own copy around each service's content. */
export const servicePageText = {
  breadcrumb: 'Breadcrumb',
  home: 'Home',
  services: 'Services',
  eyebrow: 'Insurance repairs across Glasgow and the central belt',
  coversHeading: 'What this covers',
  includesHeading: 'What the work includes',
  stepsHeading: 'What we do, step by step',
  firstHoursHeading: 'In the first hours: what to do',
  firstHoursNote: 'General guidance, not a substitute for your insurer’s instructions or the emergency services.',
  insuranceHeading: 'Working with your insurance claim',
  areaHeading: 'Where we work',
  actionHeading: 'Tell us what has happened',
  actionText: 'Call us during office hours, or send an enquiry with photos of the damage and we will come back to you.',
  enquiryLabel: 'Send an enquiry about this',
  allServices: 'All our services',
  moreAbout: (title: string) => `More about ${title}`,
} as const;

type ServiceGroup = {
  id: 'restoration' | 'building' | 'specialist';
  title: string;
  items: readonly string[];
};

/** The trades behind the six services, grouped as the sitemap page lists them. */
export const serviceGroups: readonly ServiceGroup[] = [
  {
    id: 'restoration',
    title: 'Restoration',
    items: [
      'Water damage restoration',
      'Fire and smoke damage restoration',
      'Storm and weather damage repairs',
      'Drying and dehumidification',
      'Soot cleaning and odour treatment',
    ],
  },
  {
    id: 'building',
    title: 'Building',
    items: [
      'Joinery and carpentry',
      'Plastering and drylining',
      'Roofing, leadwork and roughcasting',
      'Brickwork and stonework',
      'Plumbing and heating',
      'Electrical work',
      'Painting and decorating',
      'Flooring and tiling',
      'Kitchen and bathroom reinstatement',
    ],
  },
  {
    id: 'specialist',
    title: 'Specialist',
    items: [
      'Trace and access leak detection',
      'Emergency board-up and making safe',
      'Vandalism and malicious damage repairs',
      'Impact and accidental damage repairs',
      'Insurance claims support and reinstatement schedules',
    ],
  },
];
