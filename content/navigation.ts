type NavLink = { href: string; label: string };

export const primaryNav: readonly NavLink[] = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About Us' },
  { href: '/services', label: 'Services' },
  { href: '/gallery', label: 'Gallery' },
  { href: '/contact', label: 'Contact' },
];

export const footerNav: readonly NavLink[] = [
  { href: '/insurers', label: 'For Insurers and Loss Adjusters' },
  { href: '/health-safety', label: 'Health and Safety Policy' },
  { href: '/privacy', label: 'Privacy Policy' },
  { href: '/sitemap', label: 'Site Map' },
];

/** The page links of the /sitemap page: Home, About Us, Services, Contact and the two policies, plus the gallery, the claim look-up and the insurers' page so no page is missing (the service pages are listed under Services). */
export const sitemapLinks: readonly NavLink[] = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About Us' },
  { href: '/services', label: 'Services' },
  { href: '/gallery', label: 'Gallery' },
  { href: '/contact', label: 'Contact' },
  { href: '/track', label: 'Where’s my repair?' },
  { href: '/insurers', label: 'For Insurers and Loss Adjusters' },
  { href: '/health-safety', label: 'Health & Safety Policy' },
  { href: '/privacy', label: 'Privacy Policy' },
];

/** The sitemap page's own copy around the links. */
export const sitemapPage = {
  title: 'Site Map',
  intro: 'Every page of our website, the work we carry out and how to reach us.',
  pagesHeading: 'Pages',
  servicesHeading: 'Services',
  servicePagesHeading: 'Our service pages',
  contactHeading: 'Contact details',
  telephoneLabel: 'Telephone',
  emailLabel: 'E-mail',
} as const;

/** Names of the site's own navigation landmarks and the skip link. */
export const navigationLabels = {
  skipLink: 'Skip to main content',
  main: 'Main',
  policies: 'Policies',
  openMenu: 'Open menu',
  closeMenu: 'Close menu',
} as const;
