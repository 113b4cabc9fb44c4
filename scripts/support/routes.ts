// The site's pages with the h1 each shows: what the browser tests walk and the benchmark measures.

/** The eight main routes with the h1 each page shows. */
export const routes = [
  { path: '/', h1: 'Expert Insurance Repairs Minimal Disruption', navLabel: 'Home' },
  { path: '/about', h1: 'About Us', navLabel: 'About Us' },
  { path: '/services', h1: 'Our Services', navLabel: 'Services' },
  { path: '/gallery', h1: 'Gallery', navLabel: 'Gallery' },
  { path: '/contact', h1: 'Contact Us', navLabel: 'Contact' },
  { path: '/health-safety', h1: 'Health and Safety Policy', navLabel: null },
  { path: '/privacy', h1: 'Privacy Policy', navLabel: null },
  { path: '/sitemap', h1: 'Site Map', navLabel: null },
] as const;

/** The pages beyond the eight main routes that bring visitors from search: one per service (under Services in the bar), and one for insurers. */
export const searchRoutes = [
  { path: '/services/water-damage', h1: 'Water Damage Restoration', navLabel: 'Services' },
  { path: '/services/storm-weather', h1: 'Storm & Weather Damage', navLabel: 'Services' },
  { path: '/services/fire-smoke', h1: 'Fire & Smoke Damage', navLabel: 'Services' },
  { path: '/services/vandalism-malicious', h1: 'Vandalism & Malicious Damage', navLabel: 'Services' },
  { path: '/services/impact-accidental', h1: 'Impact & Accidental Damage', navLabel: 'Services' },
  { path: '/services/claims-support', h1: 'Insurance Claims Support', navLabel: 'Services' },
  { path: '/insurers', h1: 'For Insurers and Loss Adjusters', navLabel: null },
] as const;

/** The claim's look-up after its enquiry ("Where's my repair?"), linked from the contact, insurers' and sitemap pages. */
export const claimRoutes = [{ path: '/track', h1: 'Where’s my repair?', navLabel: null }] as const;

/** What the service worker shows for a page it cannot reach with no signal (not in the sitemap, not indexed). */
export const offlineRoutes = [{ path: '/offline', h1: "You're offline: you can still send us your claim", navLabel: null }] as const;

/** Every page search engines index (the sitemap's). */
export const indexedRoutes = [...routes, ...searchRoutes, ...claimRoutes];

/** Every page of the site. */
export const allRoutes = [...indexedRoutes, ...offlineRoutes];
