/**
 * Gzipped bytes of JavaScript of a bare Next.js page (one layout, one page, same next and react
 * versions): the scripts its HTML references (135,353 B) and its inline scripts (1,339 B). Measured by
 * `npm run bench` (scripts/bench/bench.ts builds that bare page in a temporary folder); update it when
 * Next or React is upgraded. Measured 2026-11-25 with next 16.4.5, react 19.x.
 */
export const FLOOR_GZIP_BYTES = 136_692;

const KB = 1024;

/**
 * The budgets: JS above the floor, inline scripts (the flight data) included, per route (content pages
 * and the claim look-up 20 KB, the form and the gallery 40 KB).
 */
export const jsBudgetOverFloor: Record<string, number> = {
  '/': 20 * KB,
  '/about': 20 * KB,
  '/services': 20 * KB,
  '/health-safety': 20 * KB,
  '/privacy': 20 * KB,
  '/sitemap': 20 * KB,
  '/insurers': 20 * KB,
  '/services/water-damage': 20 * KB,
  '/services/storm-weather': 20 * KB,
  '/services/fire-smoke': 20 * KB,
  '/services/vandalism-malicious': 20 * KB,
  '/services/impact-accidental': 20 * KB,
  '/services/claims-support': 20 * KB,
  '/track': 20 * KB,
  '/offline': 20 * KB,
  '/contact': 40 * KB,
  '/gallery': 40 * KB,
};
