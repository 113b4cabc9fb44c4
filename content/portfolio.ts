// The words of an instructing organisation's portfolio: the page of every claim it sent us, its CSV,
// and the answer to a link or page that no longer works. The rows themselves: lib/portfolio/portfolio-row.ts.
import { business } from '@/content/business';

export const portfolioPage = {
  title: 'Your claims with us',
  heading: (organisation: string) => `Claims from ${organisation}`,
  intro:
    'Every claim you have instructed us on, newest first: where each stands, its times, and how we did against your response standards. Times are UK time.',
  summary: {
    heading: 'How we have done',
    period: (days: number) => `Last ${days} days`,
    instructed: 'Claims instructed',
    open: 'Still open',
    medianToContact: 'Median time to first contact',
    medianToSurvey: 'Median time to survey',
    standardMet: (standard: string) => `${standard}: standard met`,
    share: (percent: number, measured: number) => `${percent}% of ${measured}`,
    noneMeasured: 'None measured yet',
    hours: (hours: number) => `${hours.toLocaleString('en-GB', { maximumFractionDigits: 1 })} working h`,
    none: 'None yet',
  },
  claimsHeading: 'Your claims',
  filters: {
    legend: 'Filter the claims',
    stage: 'Stage',
    anyStage: 'Any stage',
    state: 'Open or closed',
    states: { all: 'Open and closed', open: 'Open', closed: 'Closed' },
    submit: 'Show',
  },
  download: 'Download CSV',
  downloadHint: 'The same claims as the table below, with the filters you chose.',
  table: {
    caption: (count: number) => `${count.toLocaleString('en-GB')} claim${count === 1 ? '' : 's'}, newest first`,
    scrollLabel: 'Claims table (scrolls sideways)',
    empty: 'No claims match these filters.',
    notYet: '',
  },
  signOut: 'Sign out',
  signOutEverywhere: 'Sign out everywhere',
  signOutHint: 'Sign out everywhere ends this page in every browser where you opened one of your links.',
  workingTime: `Working hours are ${business.openingHours.label}, UK time; Scottish bank holidays are not working days. A standard in plain hours counts every hour.`,
  callUs: `Questions about a claim? Call us on ${business.phone.display}.`,
} as const;

/** The table's and the CSV's columns, in order (the standards follow, one column each). */
export const portfolioColumns = {
  reference: 'Our reference',
  claimNumber: 'Your claim number',
  postcode: 'Postcode',
  damage: 'Damage',
  stage: 'Stage',
  stageSince: 'Since',
  instructedAt: 'Instructed',
  firstContactAt: 'First contact',
  surveyAt: 'Survey',
  reportAt: 'Report',
  dryingStartedAt: 'Drying started',
  dryingEndedAt: 'Drying ended',
  completedAt: 'Completed',
  daysOpen: 'Days open',
  surveyBookedFor: 'Survey booked for',
  surveyBookedWithinStandard: 'Booked within the survey standard',
} as const;

/** Whether a booked survey window ends by the survey standard's deadline, as the page and the CSV say it. */
export const withinStandardWords = (within: boolean | null) => (within === null ? '' : within ? 'yes' : 'no');

/** The column of one standard: "Standard: first contact within 2 working hours". */
export const standardColumn = (measure: string, allowance: string) => `Standard: ${measure.toLowerCase()} within ${allowance}`;

/**
 * A portfolio link, cookie or page that no longer works (revoked, expired, never valid): nothing of
 * the organisation or its claims, only the phone number.
 */
export const portfolioDeadLinkText = {
  title: 'This link no longer works',
  callUs: 'Call us on',
  forANewOne: 'for a new one.',
  body: `Call us on ${business.phone.display} for a new one.`,
} as const;

/**
 * A link as the browser brings it to the page: pressed to open the claims (a mail scanner that opens
 * every link presses nothing, so it cannot use the link up), or used or too old, with a new one a press away.
 */
export const portfolioLinkText = {
  open: {
    heading: 'Your claims with us',
    body: (organisation: string) =>
      `This link opens the claims ${organisation} has sent us, once, and keeps this browser signed in. Use it only if it came to you, on a device you trust.`,
    button: 'Open my claims',
  },
  used: {
    title: 'This link has been used or is too old',
    body: 'Each link opens your claims once, within 24 hours. We can e-mail a new one to the same address.',
    button: 'Email me a new link',
    office: `This link was for your office. Call us on ${business.phone.display} for a new one.`,
  },
  signedOut: 'You have signed out.',
} as const;

/** The moment between the link and the page (its token traded for a cookie); it moves on by itself. */
export const portfolioOpeningText = { title: 'Opening your claims…', continue: 'Continue' } as const;

/** The CSV's file name, with the day it was made (London date). */
export const portfolioCsvName = (date: string) => `claims-${date}.csv`;
