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

export const staffPage = {
  title: 'Update the repair’s status',
  forClaim: (reference: string) => `For claim ${reference}. Saving tells the customer by email, unless you tick the box below.`,
  labels: {
    stage: 'Stage',
    nextDate: 'Next date (optional)',
    waitingOn: 'Whose move it is',
    note: 'Note for the customer (optional)',
    quiet: 'Don’t tell the customer (an internal correction)',
  },
  waitingOnNone: 'Not said',
  submit: 'Save',
  saved: (stage: string) => `Saved: the claim is now at “${stage}”.`,
  invalid: 'Please correct the highlighted fields.',
  badStage: 'Choose a stage from the list',
  badDate: 'Enter the date as a day in the calendar, or leave it empty',
  noteTooLong: 'Keep the note under 1,000 characters',
  notFound: 'This link does not open a claim. It may have expired, or the links were renewed.',
} as const;

/** The claim's links in the e-mails: the company's staff page in its notification, the status page in the acknowledgement. */
export const claimLinkText = {
  update: 'Update the repair’s status',
  customerSees: 'What the customer sees',
  statusIntro: 'See where your repair stands at any time, without logging in:',
} as const;

/** The customer's e-mail when their claim's stage changes: the reference, the stage, the date, the company's note, the link. */
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
