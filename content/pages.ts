import { services } from '@/content/services';

export type PageKey = 'home' | 'about' | 'services' | 'gallery' | 'contact' | 'track' | 'healthSafety' | 'privacy' | 'sitemap' | 'insurers';

export type PageMeta = {
  path: string;
  title: string;
  description: string;
  keywords: readonly string[];
  /** Path of the social image under public/; the default Open Graph image when absent. */
  image?: { path: string; width: number; height: number; alt: string };
};

const sharedKeywords = ['insurance repairs', 'Glasgow', 'Cumbernauld', 'central belt Scotland'];

export const pages: Record<PageKey, PageMeta> = {
  home: {
    path: '/',
    title: 'Insurance Repairs and Home Maintenance in Glasgow | Example Homecare',
    description:
      'Insurance repair and home maintenance contractor in Cumbernauld serving Glasgow and the central belt: water, storm, fire and impact damage put right first time by our own tradesmen.',
    keywords: [...sharedKeywords, 'home maintenance', 'insurance reinstatement', 'property repairs'],
  },
  about: {
    path: '/about',
    title: 'About Us and How an Insurance Claim Works',
    description:
      'Over 30 years of insurance reinstatement work with directly employed tradesmen, ten industry accreditations and a clear claims process from survey to final repair.',
    keywords: [...sharedKeywords, 'accredited contractor', 'insurance claim process', 'loss adjusters'],
  },
  services: {
    path: '/services',
    title: 'Insurance Repair Services',
    description:
      'Water damage restoration, storm and weather damage, fire and smoke damage, vandalism, impact damage and insurance claims support across Glasgow and the central belt.',
    keywords: [...sharedKeywords, 'water damage restoration', 'storm damage repairs', 'fire damage repairs'],
  },
  gallery: {
    path: '/gallery',
    title: 'Gallery of Our Repair Work',
    description:
      'Photographs and short videos of insurance repair and reinstatement work completed by our tradesmen in homes across Glasgow and central Scotland.',
    keywords: [...sharedKeywords, 'repair gallery', 'before and after', 'reinstatement photos'],
  },
  contact: {
    path: '/contact',
    title: 'Contact Us',
    description:
      'Send an enquiry or call our Cumbernauld office about an insurance repair or home maintenance job anywhere in Glasgow and the central belt.',
    keywords: [...sharedKeywords, 'contact', 'insurance repair enquiry', 'Cumbernauld contractor'],
  },
  track: {
    path: '/track',
    title: 'Where’s My Repair? Check Your Claim',
    description:
      'Check where your insurance repair stands with the reference we gave you and your email address: the stage, whose move it is and the next date.',
    keywords: [...sharedKeywords, 'claim status', 'repair progress', 'track my repair'],
  },
  healthSafety: {
    path: '/health-safety',
    title: 'Health and Safety Policy',
    description:
      'How we keep homeowners, the public and our tradesmen safe: protective equipment, regular training, risk assessments and Safe Contractor accreditation.',
    keywords: [...sharedKeywords, 'health and safety policy', 'Safe Contractor', 'risk assessment'],
  },
  privacy: {
    path: '/privacy',
    title: 'Privacy Policy',
    description:
      'Who we are, what personal information we collect when you contact us, what we do with it, your rights under UK data protection law and links to other websites.',
    keywords: [...sharedKeywords, 'privacy policy', 'UK GDPR', 'data protection'],
  },
  insurers: {
    path: '/insurers',
    title: 'For Insurers and Loss Adjusters',
    description:
      'How insurers and loss adjusters instruct us across Glasgow and the central belt: photo reports, reinstatement schedules, completion certificates and our response standards.',
    keywords: [...sharedKeywords, 'insurance reinstatement contractor', 'loss adjusters', 'repair network', 'instruct a contractor'],
    image: {
      path: '/og/insurers.png',
      width: 1200,
      height: 630,
      alt: 'For insurers and loss adjusters: insurance repairs and reinstatement across the central belt',
    },
  },
  sitemap: {
    path: '/sitemap',
    title: 'Site Map',
    description:
      'Every page of the site in one place: home, about us, services, contact, health and safety and privacy, with our service list and contact details.',
    keywords: [...sharedKeywords, 'site map', 'services list'],
  },
};

export const defaultSocialImage = {
  path: '/og/default.png',
  width: 1200,
  height: 630,
  alt: 'Example Homecare: expert insurance repairs across Glasgow and the central belt',
} as const;

/** Every page of the site with its metadata: the fixed pages, then one per service. */
export const sitePages: readonly PageMeta[] = [...Object.values(pages), ...services.map((service) => service.page)];
