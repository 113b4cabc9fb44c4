// The words of a claim's pages after its enquiry: "Where's my repair?", the status by link, and the
// company's staff page. Numbers and rules are in lib/claim-stages.ts and server/claims/.
import { business } from '@/content/business';

export const trackPage = {
  title: 'Where’s my repair?',
  eyebrow: 'Your claim',
  intro:
    'Enter the reference we gave you when you sent your enquiry, and the email address you sent it from, to see where your repair stands. No account is needed.',
  labels: { reference: 'Reference', email: 'Email' },
  referenceHint: 'It starts HC-, like HC-ABC-DEF. It is in the email we sent you.',
  submit: 'Show the status',
  notFound: `We could not find a claim with that reference and email address. Check both, or call us on ${business.phone.display}.`,
  incomplete: 'Enter both the reference and the email address.',
  tooMany: (minutes: number) =>
    `Too many look-ups from your connection. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call us on ${business.phone.display}.`,
  unavailable: `We cannot show the status just now. Please try again in a minute, or call us on ${business.phone.display}.`,
} as const;

/** Where other pages point to the look-up. */
export const trackLinkText = {
  contact: 'Already sent us an enquiry?',
  insurers: 'Following a claim you instructed?',
  sent: 'Later, with this reference and your email address:',
  label: 'See where your repair stands',
} as const;

export const statusText = {
  heading: (reference: string) => `Claim ${reference}`,
  stage: 'Where it stands',
  waitingOn: 'Whose move it is',
  nextDate: 'Next date',
  timeline: 'So far',
  noNextDate: 'None set yet',
  notFound: 'This link does not open a claim. It may have expired, or been replaced by a newer one.',
  callUs: `Questions about your repair? Call us on ${business.phone.display}.`,
} as const;

/** On an insurer's or a loss adjuster's instruction only: its times beside the company's response standards. */
export const insurerTimesText = {
  heading: 'For your insurer',
  caption: 'Times against our standards',
  captionUnconfirmed: 'Times so far',
  columns: { step: 'Step', at: 'When', standard: 'Our standard', outcome: 'Against it' },
  steps: {
    received: 'Instruction received',
    contacted: 'First contact with the policyholder',
    surveyed: 'Survey',
    'with-insurer': 'Report and schedule sent',
    drying: 'Drying started',
    dried: 'Dried: ready for repairs',
  },
  notYet: 'Not yet',
  noStandard: '-',
  met: 'Met',
  missed: 'Missed',
  dueBy: 'Due by',
  notMeasured: 'Not counted yet',
  workingTime: `Working hours are ${business.openingHours.label}, UK time; Scottish bank holidays are not working days.`,
  beingConfirmed: 'Our response standards are being confirmed, so these times are shown without them.',
} as const;

/**
 * A signed link that no longer works (expired, withdrawn, or every link renewed), or a page opened by
 * one and left open past its time: nothing of the claim, only how to get a new link.
 */
export const deadLinkText = {
  title: 'This link no longer works',
  status: `This link no longer works. Open the link in our latest email again; if it still does not work, look up your claim with its reference and your email address, or call us on ${business.phone.display} and we will send you a new one.`,
  update: `This link no longer works: it has expired (30 days after the claim last moved) or been withdrawn. Open the link in the latest notification again; if it still does not work, call the office on ${business.phone.display} for a new one.`,
  lookUp: 'Look up your claim',
} as const;

/** The moment between a signed link and the page it opens (its token traded for a cookie); it moves on by itself. */
export const linkOpeningText = { title: 'Opening your claim…', continue: 'Continue' } as const;

/** The claim's links in the e-mails: the company's staff page in its notification, the status page in the acknowledgement. */
export const claimLinkText = {
  update: 'Update the repair’s status',
  customerSees: 'What the customer sees',
  statusIntro: 'See where your repair stands at any time, without logging in:',
} as const;

/** The customer's e-mail when their claim's stage changes: the reference, the stage, the date, the company's note, the link. */
/** The homeowner's reminder of a booked survey visit, at 18:00 on the working day before it. */
export const surveyReminderText = {
  subject: (reference: string, when: string, companyName: string) => `Reminder: your survey visit ${when} (${reference}, ${companyName})`,
  greeting: 'Hello,',
  visit: (reference: string, when: string) => `This is a reminder of the survey visit for your claim ${reference}: ${when}.`,
  window: 'Our surveyor arrives within that window. Please make sure someone over 18 can let them in.',
  cannotMake: (phone: string) => `If you can no longer be there, please call us on ${phone} as soon as you can.`,
  link: 'See where your repair stands at any time, without logging in:',
} as const;

export const stageEmailText = {
  subject: (reference: string, stage: string, companyName: string) => `Your repair ${reference}: ${stage} (${companyName})`,
  greeting: 'Hello,',
  moved: (reference: string, stage: string) => `Your claim ${reference} has moved on. It is now at: ${stage}.`,
  nextDate: (date: string) => `Next date: ${date}`,
  waitingOn: (whose: string) => `Whose move it is: ${whose}`,
  note: 'A note from us:',
  link: 'See where your repair stands at any time, without logging in:',
  contactLine: (phone: string) => `Questions? Call us on ${phone}, or reply to this e-mail.`,
} as const;
