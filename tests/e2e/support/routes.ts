/** The eight routes of the spec with the h1 each page shows. */
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

export const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
