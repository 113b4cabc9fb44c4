/** The 404 page's copy. */
export const notFoundPage = {
  title: 'Page not found',
  description: 'The page you asked for is not on our website. Find your way to our services, contact details or home page.',
  eyebrow: 'Error 404',
  heading: "Sorry, we can't find that page",
  intro: 'The page may have moved, or the address may have been mistyped. These links will help you find what you need:',
  links: [
    { href: '/', label: 'Home page', text: 'Start again from our home page.' },
    { href: '/services', label: 'Our services', text: 'Water, storm, fire, vandalism and impact damage repairs.' },
    { href: '/contact', label: 'Contact us', text: 'Send us a message about your repair.' },
  ],
  callPrompt: 'Need help with damage to your home now? Call us on',
} as const;
