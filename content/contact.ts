// Every message of the enquiry feature in one place: what the form says about its fields, the outcomes
// the visitor sees after sending, and what the server answers for a bad request. The numbers they quote
// (lengths, photos, sizes) are the enquiry's rules, in lib/enquiry-rules.mjs: imported by a relative path,
// since server.mjs loads this file through tsx, which resolves `@/` only from the project's folder.
import { CONTACT_OUTCOME_MESSAGES } from './contact-outcomes';
import { CLAIM_MAX, CONTACT_MAX, CONTACT_MIN, ENQUIRY_TEXT_MAX_BYTES, PHOTO_MAX_BYTES, PHOTO_MAX_COUNT } from '../lib/enquiry-rules.mjs';

export { CONTACT_OUTCOME_MESSAGES };

/** A photo's largest size as the form shows sizes: decimal megabytes, as phones show them. */
const photoMaxMb = `${PHOTO_MAX_BYTES / 1_000_000} MB`;

/** Field messages, shown under each field by the form and returned by the server as errors[]. */
export const CONTACT_MESSAGES = {
  name: `Name must be at least ${CONTACT_MIN.name} characters long`,
  email: 'Please enter a valid email address',
  subject: `Subject must be at least ${CONTACT_MIN.subject} characters long`,
  message: `Message must be at least ${CONTACT_MIN.message} characters long`,
  nameMax: `Name must be at most ${CONTACT_MAX.name} characters long`,
  emailMax: `Email must be at most ${CONTACT_MAX.email} characters long`,
  phoneMax: `Phone must be at most ${CONTACT_MAX.phone} characters long`,
  subjectMax: `Subject must be at most ${CONTACT_MAX.subject} characters long`,
  messageMax: `Message must be at most ${CONTACT_MAX.message} characters long`,
} as const;

/** What POST /api/contact answers, as `message`, for each refusal (the form shows it). */
export const CONTACT_RESPONSES = {
  unsupportedType: 'Send the enquiry as application/json, or as multipart/form-data with photos.',
  tooLarge: `The enquiry is larger than ${ENQUIRY_TEXT_MAX_BYTES / 1024} KiB.`,
  malformed: 'The body is not valid JSON.',
  notObject: 'The body must be a JSON object with name, email, phone, subject and message.',
  invalid: 'Please correct the highlighted fields.',
  tooMany: CONTACT_OUTCOME_MESSAGES.tooManyRequests,
  missingToken: 'The reCAPTCHA check is missing. Please reload the page and try again.',
  invalidToken: 'The reCAPTCHA check failed. Please reload the page and try again.',
  unavailable: 'Your message could not be saved right now. Please try again in a minute or contact us directly.',
  photosBusy: 'Many photos are being sent to us right now. Please try again in a minute.',
  bodyTooLarge: 'The enquiry with its photos is larger than we accept. Please send fewer or smaller photos.',
  uploadInProgress: 'Your last enquiry with photos is still being sent. Please wait for it to finish.',
  uploadTooSlow:
    'Your photos were arriving too slowly for us to receive them. Please try again where the signal is better, or send fewer photos.',
  photosMissing: 'The photos sent ahead of this claim are no longer here. Please send them again with it.',
  photoAhead: 'A photo sent ahead of its claim must come alone, with the claim’s key.',
  photoAheadStaged: 'Photo received. It is kept for the claim that follows.',
  success: CONTACT_OUTCOME_MESSAGES.success,
} as const;

/** The contact page's copy around the form. */
export const contactPage = {
  title: 'Contact Us',
  eyebrow: 'Get in touch',
  intro: 'Call us, e-mail us or send a message about an insurance repair or any work on your home.',
  detailsHeading: 'Our details',
  formHeading: 'Send us a message',
  details: {
    address: 'Address',
    telephone: 'Telephone',
    email: 'E-mail',
    openingHours: 'Opening hours',
    serviceArea: 'Service area',
  },
} as const;

/** The form's own words: field labels, the button, the hidden trap field, Google's required disclosure. */
export const contactFormText = {
  labels: { name: 'Name', email: 'Email', phone: 'Phone (optional)', subject: 'Subject', message: 'Message' },
  honeypotLabel: 'Leave this field empty',
  submit: 'Send message',
  submitting: 'Sending…',
  recaptchaDisclosure: {
    before: 'This site is protected by reCAPTCHA and the Google',
    privacy: 'Privacy Policy',
    and: 'and',
    terms: 'Terms of Service',
    after: 'apply.',
  },
} as const;

/**
 * The optional claim details. Roles and kinds of damage are stored by their value; the labels
 * are what the form and the company's e-mail show. The kinds of damage are the services' (content/
 * services.ts ids) that name a damage; "Insurance Claims Support" is a service, not a kind of damage.
 */
export const CLAIM_ROLES = [
  { value: 'homeowner', label: 'Homeowner or tenant' },
  { value: 'insurer', label: 'Insurer' },
  { value: 'loss-adjuster', label: 'Loss adjuster' },
  { value: 'agent-landlord', label: 'Managing agent or landlord' },
  { value: 'other', label: 'Other' },
] as const;

export const DAMAGE_TYPES = [
  { value: 'water-damage', label: 'Water damage' },
  { value: 'storm-weather', label: 'Storm or weather damage' },
  { value: 'fire-smoke', label: 'Fire or smoke damage' },
  { value: 'vandalism-malicious', label: 'Vandalism or malicious damage' },
  { value: 'impact-accidental', label: 'Impact or accidental damage' },
  { value: 'other', label: 'Other' },
] as const;

/** The three urgency questions' answers, and those of the instruction's two choices. */
export const URGENCY_ANSWERS = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
  { value: 'not-sure', label: 'Not sure' },
] as const;
export const VAT_ANSWERS = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
  { value: 'not-known', label: 'Not known' },
] as const;
export const DESKTOP_ANSWERS = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;

/** The roles that instruct us on a policyholder's behalf: the form then asks for the instruction's details. */
export const INSTRUCTING_ROLES = ['insurer', 'loss-adjuster'] as const;

export const CLAIM_MESSAGES = {
  claimRole: 'Choose who is getting in touch from the list',
  insurerMax: `Insurer must be at most ${CLAIM_MAX.insurer} characters long`,
  claimReferenceMax: `Claim or policy reference must be at most ${CLAIM_MAX.claimReference} characters long`,
  damageDate: 'Enter the date of the damage as a real date, like 14/11/2026',
  damageDateFuture: 'The date of the damage cannot be in the future',
  damageType: 'Choose the type of damage from the list',
  postcode: 'Enter a UK postcode, like G67 1AB',
  worsening: 'Choose yes, no or not sure',
  habitable: 'Choose yes, no or not sure',
  vulnerable: 'Choose yes, no or not sure',
  policyholderName: 'Enter the policyholder’s name',
  policyholderNameMax: `The policyholder’s name must be at most ${CLAIM_MAX.policyholderName} characters long`,
  policyholderPhone: 'Enter the policyholder’s telephone number, like 0141 496 0123',
  policyholderPhoneMax: `The policyholder’s telephone must be at most ${CLAIM_MAX.policyholderPhone} characters long`,
  propertyAddress: 'Enter the address of the property',
  propertyAddressMax: `The address must be at most ${CLAIM_MAX.propertyAddress} characters long`,
  instructionPostcode: 'Enter the postcode of the property, like G67 1AB',
  vatRegistered: 'Choose yes, no or not known',
  excess: 'Enter the excess as an amount in pounds, like 250 or £1,000',
  desktopAssessment: 'Choose yes or no',
  noPhoneCalls: 'Tick “No phone calls, please” or leave it empty',
  supportNeedsMax: `What would help must be at most ${CLAIM_MAX.supportNeeds} characters long`,
} as const;

export const claimFormText = {
  toggle: 'This is about an insurance claim',
  legend: 'Claim details',
  hint: 'All optional, except the policyholder and the property when an insurer or loss adjuster instructs us (marked *). Anything you can tell us now saves a phone call later.',
  labels: {
    claimRole: 'Who is getting in touch',
    insurer: 'Insurer’s name',
    claimReference: 'Claim or policy reference',
    damageDate: 'Date of the damage',
    damageType: 'Type of damage',
    postcode: 'Postcode of the property',
    worsening: 'Is water, fire or smoke damage still getting worse?',
    habitable: 'Can people stay in the home tonight?',
    vulnerable: 'Is anyone living there at particular risk (very old, very young or unwell)?',
    policyholderName: 'Policyholder’s name',
    policyholderPhone: 'Policyholder’s telephone',
    propertyAddress: 'Address of the property (street and town)',
    vatRegistered: 'Is the policyholder registered for VAT?',
    excess: 'Policy excess, if known (£)',
    desktopAssessment: 'Is a desktop assessment from photos acceptable?',
    noPhoneCalls: 'No phone calls, please',
    supportNeeds: 'What would help',
  },
  choose: 'Choose…',
  urgencyLegend: 'How urgent is it?',
  urgencyHint: 'If any answer is yes (or no one can stay tonight), we treat your enquiry as urgent and call back first.',
  vulnerableWhy: 'We ask only so that we can come first to those who need it, and keep the answer no longer than your enquiry:',
  vulnerablePrivacy: 'how we use it',
  instructionLegend: 'Your instruction',
  instructionHint:
    'Your own name, e-mail and telephone above are the claims handler’s. Tell us here who we should call and where the property is.',
  instructionMore: 'About the policy',
  /** Shown above an instruction to someone signed in with an organisation's portfolio link (server/portfolio/signed-in-sender.ts). */
  sendingAs: (email: string, organisation: string) =>
    `Sending as ${email}, signed in to ${organisation}’s view of the claims it instructed. An instruction with an e-mail address at one of ${organisation}’s domains shows in that view as soon as it is sent.`,
  supportLegend: 'Would anything help us work with you? (optional)',
  supportHint:
    'For example: access needs, someone to speak to for you, or times not to call. We use it only to arrange the repair around you:',
  supportPrivacy: 'how we keep it',
} as const;

/** Why an urgent enquiry is urgent: its notification's first lines, one per answer. */
export const urgencyReasonText = {
  worsening: 'The damage is still getting worse.',
  habitable: 'People cannot stay in the home tonight.',
  vulnerable: 'Someone living there is at particular risk (very old, very young or unwell).',
} as const;

/** What a visitor who answered that it is urgent sees with the success message. */
export const urgentCallText = {
  heading: 'You told us this is urgent.',
  text: 'We call urgent enquiries back first. If you cannot wait, call our emergency line now:',
  link: (display: string) => `Call ${display} now`,
} as const;

/** The reference every accepted enquiry gets, shown under the success message. */
export const referenceText = {
  before: 'Your reference is',
  after: 'Quote it if you call us about this enquiry.',
} as const;

/**
 * The acknowledgement e-mail sent to the visitor. Fixed text: nothing the visitor typed
 * appears in it, not even their name, so the form cannot send chosen words to someone else's address.
 */
export const acknowledgementText = {
  subject: (reference: string, companyName: string) => `We have your enquiry ${reference}: ${companyName}`,
  greeting: 'Hello,',
  received: (reference: string) => `Thank you for getting in touch. We have received your enquiry; its reference is ${reference}.`,
  nextHeading: 'What happens next',
  next: [
    'One of our team reads every enquiry and will reply by e-mail or telephone, usually within one working day.',
    'If this is about an insurance claim, keep photographs of the damage and any receipts; your insurer will ask for them.',
    'In an emergency (water coming through a ceiling, an unsafe structure), call us rather than waiting for a reply.',
  ],
  contactLine: (phone: string, hours: string) => `Telephone: ${phone} (${hours})`,
  emergencyLine: (phone: string) => `Emergency line, at any hour: ${phone}`,
  /** An instruction's acknowledgement: our reference beside the instructing office's claim number. */
  instructionSubject: (reference: string, claimNumber: string, companyName: string) =>
    `Instruction received: our reference ${reference}, your claim ${claimNumber}: ${companyName}`,
  instructionReceived: (reference: string, claimNumber: string) =>
    `Thank you for your instruction. Our reference ${reference} is paired with your claim number ${claimNumber}; both appear on every report, schedule and invoice we send you.`,
  instructionNext:
    'We will contact the policyholder and arrange the survey within our response standards, and keep you informed at every stage.',
  notYou: 'If you did not send this enquiry, you can ignore this e-mail; nothing more will be sent to you.',
} as const;

/** Lines of the company's notification that are about the enquiry rather than its fields. */
export const notificationText = {
  /** An enquiry sent again with the same form (its key) but other words: a new enquiry, tied to the one it replaces. */
  resentWithChanges: (reference: string, receivedAt: string) =>
    `Sent again with changes: this replaces ${reference} sent at ${receivedAt}. The visitor edited the form after sending it (perhaps without seeing our answer); both are kept, and this one holds what they want us to read.`,
} as const;

/** Damage photos. Every message that concerns one file names it. */
export const photoText = {
  label: 'Photos of the damage (optional)',
  hint: `Up to ${PHOTO_MAX_COUNT} photos, each up to ${photoMaxMb}: choose them from your phone or take them with its camera.`,
  listLabel: 'Photos to send',
  removeShort: 'Remove',
  remove: (name: string) => `Remove ${name}`,
  added: (count: number, total: number) => `${count === 1 ? '1 photo' : `${count} photos`} added; ${total} of ${PHOTO_MAX_COUNT}.`,
  removed: (name: string, total: number) => `${name} removed; ${total} of ${PHOTO_MAX_COUNT}.`,
  tooMany: `You can send up to ${PHOTO_MAX_COUNT} photos.`,
  tooLarge: (name: string) => `“${name}” is larger than ${photoMaxMb}. Please choose a smaller photo.`,
  heic: (name: string) =>
    `“${name}” is a HEIC photo, which we cannot open. Please send it as a JPEG: on an iPhone, choose it from Photos rather than Files, or set Settings › Camera › Formats to Most Compatible.`,
  notAPhoto: (name: string) => `“${name}” is not a photo we can open. Please send JPEG, PNG or WebP photos.`,
  tooManyPixels: (name: string) =>
    `“${name}” has more pixels than we can open. Please send a smaller copy of it, such as the one your phone shares by message.`,
  notSent:
    'Your photos could not be sent, so your enquiry has not reached us yet. Everything you entered is still here: please try again, or remove the photos and send your message without them.',
  notKept:
    'We could not keep your photos just now, but your message is with us. Please keep the photos: we will ask for them when we reply.',
  unreadable: (name: string) => `“${name}” could not be read as a photo; it may be damaged. Please choose it again or leave it out.`,
  chooseAgain: 'Your photos were not sent with this try: please choose them again.',
} as const;

/** The page a form posted without JavaScript lands on once the enquiry is stored (/contact/sent). */
export const sentPage = {
  title: 'Message sent',
  description: 'Your enquiry has reached us.',
  next: 'One of our team reads every enquiry and will reply by e-mail or telephone, usually within one working day.',
  urgent: 'In an emergency, call us rather than waiting for a reply:',
  urgentSent: 'You told us this is urgent: we call urgent enquiries back first. If you cannot wait, call our emergency line now:',
  back: 'Back to the home page',
} as const;

/** How the form reports an enquiry on its way up, a connection that failed, and the draft it keeps. */
export const sendingText = {
  progressLabel: 'Sending your enquiry',
  progress: (sent: string, total: string, percent: number) => `${sent} of ${total} sent (${percent}%)`,
  timeLeft: (seconds: number) =>
    seconds < 60 ? `About ${Math.max(5, Math.ceil(seconds / 5) * 5)} seconds left` : `About ${Math.ceil(seconds / 60)} minutes left`,
  waiting: 'Everything is sent. Waiting for our answer…',
  steps: { 25: 'A quarter sent.', 50: 'Half sent.', 75: 'Three quarters sent.', 100: 'All sent. Waiting for our answer.' },
  cancel: 'Cancel',
  cancelled: 'Sending stopped. Everything you entered and your photos are still here.',
  lost: (seconds: number) =>
    `We could not confirm that your enquiry reached us: your connection may have dropped. It may not have arrived yet, so we will keep trying${seconds > 0 ? ` (next try in ${seconds} s)` : ''}. Keep this page open.`,
  offline:
    'Your phone is offline. Your enquiry has not been sent yet: we will send it as soon as the connection is back. Keep this page open.',
  busy: (seconds: number) => `Many photos are being sent to us right now. We will try again by ourselves in ${seconds} s.`,
  retrying: 'Trying again…',
  editedWhileWaiting:
    'You changed the form, so we stopped sending the earlier version. Press Send message to send it as it is now; if the earlier one did reach us, we will have both and read this one.',
  sendNow: 'Send now',
  restored: 'We kept what you started here earlier on this device; it is filled in below.',
  clear: 'Clear form',
  cleared: 'The form is empty again, and nothing of it is kept on this device.',
} as const;

/**
 * The short pages server.mjs answers with when it refuses the form posted without JavaScript
 * (POST /contact) before reading it, and its message for a post from another website (every path).
 */
export const refusedPostPages = {
  back: 'Back to the contact form',
  call: 'Or call us on',
  tooLarge: {
    title: 'Your enquiry is too large to send',
    text: `Your enquiry with its photos is larger than we accept: up to ${PHOTO_MAX_COUNT} photos of up to ${photoMaxMb} each. Please go back and send fewer or smaller photos.`,
  },
  notAForm: {
    title: 'Your enquiry could not be read',
    text: 'Your browser sent the form in a way we cannot read, so your enquiry has not reached us. Please go back and try again.',
  },
  noLength: {
    title: 'Your enquiry could not be read',
    text: 'Your browser did not say how large your enquiry is, so it has not reached us. Please go back and try again.',
  },
  crossSite: {
    title: 'Enquiry not accepted',
    text: 'This was sent to us from another website, so we did not accept it. Please use the form on our own contact page.',
  },
  busy: {
    title: 'Many photos are arriving at once',
    text: 'Many photos are being sent to us right now, so your enquiry has not reached us yet. Please go back and try again in a minute.',
  },
  inProgress: {
    title: 'Your last enquiry is still being sent',
    text: 'Your last enquiry with photos is still being sent. Please wait for it to finish before sending another.',
  },
  tooManyFailed: {
    title: 'Please try again later',
    text: 'Several of your recent enquiries with photos did not reach us because the connection was too slow or dropped. Please try again later, or send your message without photos.',
  },
  tooSlow: {
    title: 'Your photos arrived too slowly',
    text: CONTACT_RESPONSES.uploadTooSlow,
  },
} as const;
