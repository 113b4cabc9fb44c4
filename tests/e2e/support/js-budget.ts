/**
 * Gzipped bytes of JavaScript that a bare Next.js page (one layout, one page, same next and react
 * versions) references from its HTML. Measured by `npm run bench` (scripts/bench/bench.ts builds that bare
 * page in a temporary folder); update it when Next or React is upgraded.
 * Measured 2026-11-22 with next 16.4.5, react 19.x.
 */
export const FLOOR_GZIP_BYTES = 135_352;

const KB = 1024;

/** The budgets: JS above the floor, per route. */
export const jsBudgetOverFloor: Record<string, number> = {
  '/': 15 * KB,
  '/about': 15 * KB,
  '/services': 15 * KB,
  '/health-safety': 15 * KB,
  '/privacy': 15 * KB,
  '/sitemap': 15 * KB,
  '/insurers': 15 * KB,
  '/services/water-damage': 15 * KB,
  '/services/storm-weather': 15 * KB,
  '/services/fire-smoke': 15 * KB,
  '/services/vandalism-malicious': 15 * KB,
  '/services/impact-accidental': 15 * KB,
  '/services/claims-support': 15 * KB,
  '/contact': 40 * KB,
  '/gallery': 40 * KB,
};
