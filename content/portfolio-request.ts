import { business } from '@/content/business';

/**
 * How long a link and a session work, in words (server/portfolio/portfolio-access.ts: PORTFOLIO_LINK_HOURS,
 * PORTFOLIO_SESSION_DAYS; a unit test holds them equal).
 */
export const PORTFOLIO_LINK_HOURS_WORDS = '24 hours';
export const PORTFOLIO_SESSION_DAYS_WORDS = '30 days';

/** "Your claims with us" on /insurers: asking for one's portfolio link by e-mail, and the e-mail itself. */
export const portfolioRequestText = {
  heading: 'Your claims with us',
  intro:
    'If your organisation is set up with us, you can see every claim it has sent us on one page: where each stands and our times against your standards. Enter your work e-mail address and we will e-mail you your own link.',
  label: 'Your work e-mail address',
  submit: 'Email me a link',
  sending: 'Sending…',
  answered: `If that address is registered with us, we have sent it a link. It opens your claims once, within ${PORTFOLIO_LINK_HOURS_WORDS}.`,
  invalid: 'Enter your e-mail address in the form name@example.com',
  tooLong: 'That address is too long: at most 254 characters',
  folded: 'Type your address in plain letters: it has a character that reads as another (such as ſ for s)',
  tooMany: (minutes: number) =>
    `Too many requests from your connection. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call ${business.phone.display}.`,
  unavailable: `We could not take your request just now. Please try again in a few minutes, or call ${business.phone.display}.`,
} as const;

/** The e-mail that carries a person's link. */
export const portfolioLinkEmail = {
  subject: `Your claims with ${business.name}: your link`,
  text: (link: string) =>
    [
      'Hello,',
      '',
      `You asked for a link to the claims your organisation has sent ${business.name}. This link is yours: please do not forward it.`,
      '',
      link,
      '',
      `It opens your claims once, within ${PORTFOLIO_LINK_HOURS_WORDS}, and keeps that browser signed in for ${PORTFOLIO_SESSION_DAYS_WORDS} from the last time you use it. If you did not ask for it, you can ignore this e-mail.`,
      '',
      `${business.name} · ${business.phone.display}`,
    ].join('\n'),
} as const;
