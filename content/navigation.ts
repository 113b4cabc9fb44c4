export type NavLink = { href: string; label: string };

export const primaryNav: readonly NavLink[] = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About Us' },
  { href: '/services', label: 'Services' },
  { href: '/gallery', label: 'Gallery' },
  { href: '/contact', label: 'Contact' },
];

export const footerNav: readonly NavLink[] = [
  { href: '/health-safety', label: 'Health and Safety Policy' },
  { href: '/privacy', label: 'Privacy Policy' },
  { href: '/sitemap', label: 'Site Map' },
];

/** The page links of the /sitemap page: the spec's six, plus the gallery so no page is missing. */
export const sitemapLinks: readonly NavLink[] = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About Us' },
  { href: '/services', label: 'Services' },
  { href: '/gallery', label: 'Gallery' },
  { href: '/contact', label: 'Contact' },
  { href: '/health-safety', label: 'Health & Safety Policy' },
  { href: '/privacy', label: 'Privacy Policy' },
];
