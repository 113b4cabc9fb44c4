import { withoutLinkTokens } from '@/lib/claim-paths.mjs';
import { plainText } from '@/lib/plain-text';
import { recordedLanding } from '@/lib/visit-landing';

/**
 * Where an enquiry came from, without cookies or device storage: the page a visit landed on, the origin
 * of the site that referred it and its campaign tags (recorded for the visit by lib/visit-landing.ts),
 * and the page the form was sent from. Nothing here identifies a person. The server reads the same fields through
 * the contact schema, with the same cleaning, so whatever a client sends is bounded and plain.
 */
export const ATTRIBUTION_FIELDS = ['sentFrom', 'landingPage', 'referrer', 'utmSource', 'utmMedium', 'utmCampaign'] as const;
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
export type Attribution = Record<AttributionField, string>;
type Landing = Omit<Attribution, 'sentFrom'>;

const ATTRIBUTION_MAX = { path: 200, origin: 200, campaign: 100 } as const;

const SITE_PATH = /^\/(?!\/)[A-Za-z0-9\-._~/%]*$/;

/** A path of this site (no query, no fragment, no other host, no secret token: lib/claim-paths.mjs), or '' for anything else. */
export function sitePath(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  const value = raw.trim();
  if (!(value.length <= ATTRIBUTION_MAX.path && SITE_PATH.test(value))) return '';
  return withoutLinkTokens(value);
}

/** The origin (scheme, host, port) of an http(s) URL, or '' for anything else. */
export function referrerOrigin(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 2048) return '';
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return '';
    return url.origin.length <= ATTRIBUTION_MAX.origin ? url.origin : '';
  } catch {
    return '';
  }
}

/** A campaign tag as one plain line, at most ATTRIBUTION_MAX.campaign characters. */
export function campaignTag(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  return plainText(raw.slice(0, 4 * ATTRIBUTION_MAX.campaign), 'space')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, ATTRIBUTION_MAX.campaign)
    .trim();
}

/** Every attribution field cleaned: what the server stores, whatever the client sent. */
export function cleanAttribution(input: Partial<Record<AttributionField, unknown>>): Attribution {
  return {
    sentFrom: sitePath(input.sentFrom),
    landingPage: sitePath(input.landingPage),
    referrer: referrerOrigin(input.referrer),
    utmSource: campaignTag(input.utmSource),
    utmMedium: campaignTag(input.utmMedium),
    utmCampaign: campaignTag(input.utmCampaign),
  };
}

/** The landing of a visit that began at `href`: its path, another site's origin that referred it, its campaign tags. */
function landingOf(href: string, referrer: string): Landing {
  const url = new URL(href);
  const from = referrerOrigin(referrer);
  return {
    landingPage: sitePath(url.pathname),
    referrer: from === url.origin ? '' : from,
    utmSource: campaignTag(url.searchParams.get('utm_source') ?? ''),
    utmMedium: campaignTag(url.searchParams.get('utm_medium') ?? ''),
    utmCampaign: campaignTag(url.searchParams.get('utm_campaign') ?? ''),
  };
}

/** What an enquiry sent from `pathname` carries about its visit. */
export function attributionFor(pathname: string): Attribution {
  const landing = recordedLanding();
  return cleanAttribution({ ...(landing ? landingOf(landing.href, landing.referrer) : {}), sentFrom: pathname });
}

/**
 * The source of a visit in a word or two, as the statistics group them: its campaign source when tagged
 * (`google / cpc`), else the host of the referring site, else `direct or unknown`.
 */
export function sourceOf(from: { referrer?: string | null; utmSource?: string | null; utmMedium?: string | null }): string {
  if (from.utmSource) return from.utmMedium ? `${from.utmSource} / ${from.utmMedium}` : from.utmSource;
  if (from.referrer) {
    try {
      return new URL(from.referrer).host;
    } catch {
      return from.referrer;
    }
  }
  return 'direct or unknown';
}
