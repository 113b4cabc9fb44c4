import type { PageMeta } from '@/content/pages';

/** The damage types of the enquiry form (content/contact.ts DAMAGE_TYPES) a service page can preselect. */
type ServiceDamageType = 'water-damage' | 'storm-weather' | 'fire-smoke' | 'vandalism-malicious' | 'impact-accidental';

type ServiceStep = { title: string; text: string };

/** One service: its card on /services and the home page, and its own page at /services/<id>. */
export type Service = {
  /** The slug of its page and the anchor of its card on /services. */
  id: string;
  /** The service's fixed title, shown on the card and as the page's heading. */
  title: string;
  summary: string;
  /** What the work typically includes, shown as a list on the card and the page. */
  includes: readonly string[];
  /** schema.org `serviceType`: what a search engine should file the service under. */
  serviceType: string;
  /** The page's title, description, keywords and social image. */
  page: PageMeta & { image: NonNullable<PageMeta['image']> };
  /** What the service covers, a paragraph each. */
  covers: readonly string[];
  /** What we do, step by step. */
  steps: readonly ServiceStep[];
  /** General, honest guidance for a homeowner in the first hours. */
  firstHours: readonly string[];
  /** How the work runs alongside an insurance claim, a paragraph each. */
  insurance: readonly string[];
  /** The type of damage the enquiry button preselects; null opens the claim part without one. */
  damageType: ServiceDamageType | null;
};

const sharedKeywords = ['insurance repairs', 'Glasgow', 'Cumbernauld', 'central belt Scotland'];

/** The page fields every service shares: its path and social image follow from its id. */
export function servicePage(id: string, title: string, meta: { title: string; description: string; keywords: readonly string[] }) {
  return {
    path: `/services/${id}`,
    title: meta.title,
    description: meta.description,
    keywords: [...meta.keywords, ...sharedKeywords],
    image: {
      path: `/og/services/${id}.png`,
      width: 1200,
      height: 630,
      alt: `${title}: insurance repairs across Glasgow and the central belt`,
    },
  };
}
