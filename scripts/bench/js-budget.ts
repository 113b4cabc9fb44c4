/**
 * Gzipped bytes of JavaScript that a bare Next.js page (one layout, one page, same next and react
 * versions) references from its HTML. Measured by `npm run bench` (scripts/bench/bench.ts builds that bare
 * page in a temporary folder); update it when Next or React is upgraded.
 * Measured 2026-11-22 with next 16.4.5, react 19.x.
 */
export const FLOOR_GZIP_BYTES = 135_352;

const KB = 1024;

/** The budgets: JS above the floor, per route (content pages 10 KB, the form and the gallery 30 KB). */
export const jsBudgetOverFloor: Record<string, number> = {
  '/': 10 * KB,
  '/about': 10 * KB,
  '/services': 10 * KB,
  '/health-safety': 10 * KB,
  '/privacy': 10 * KB,
  '/sitemap': 10 * KB,
  '/insurers': 10 * KB,
  '/services/water-damage': 10 * KB,
  '/services/storm-weather': 10 * KB,
  '/services/fire-smoke': 10 * KB,
  '/services/vandalism-malicious': 10 * KB,
  '/services/impact-accidental': 10 * KB,
  '/services/claims-support': 10 * KB,
  '/contact': 30 * KB,
  '/gallery': 30 * KB,
};
