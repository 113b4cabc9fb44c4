// The words of photos added to a claim later, from its status page: a module of its own, since the
// look-up loads the photo form (and so these words) only once a claim is found.
import { business } from '@/content/business';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact-outcomes';
import { CLAIM_PHOTOS_MAX, PHOTO_MAX_BYTES, PHOTO_MAX_COUNT } from '@/lib/enquiry-rules.mjs';

/** Photos added later from the status page, and what the page says of them. */
export const laterPhotosText = {
  heading: 'Add photos to your claim',
  intro: `Your insurer or loss adjuster may ask for more photos. Add them here and they reach us with your claim’s reference: up to ${PHOTO_MAX_COUNT} at a time, each up to ${PHOTO_MAX_BYTES / 1_000_000} MB.`,
  label: 'Photos to add',
  submit: 'Send the photos',
  cancelled: 'Sending stopped: your photos have not reached us. Choose Send when you are ready.',
  added: (count: number, reference: string) =>
    `Thank you: ${count} photo${count === 1 ? '' : 's'} added to claim ${reference}. We have been told.`,
  /** After a post without the page's script: what the status page says, from a fixed list (nothing typed goes in its URL). */
  outcomes: {
    none: 'Choose at least one photo to send.',
    'not-a-photo':
      'One of the files is not a photo we can open. Please send JPEG, PNG or WebP photos: on an iPhone, choose them from Photos rather than Files, or set Settings › Camera › Formats to Most Compatible.',
    'too-large': `One of the photos is over ${PHOTO_MAX_BYTES / 1_000_000} MB. Please choose a smaller one.`,
    'too-many': `Please send at most ${PHOTO_MAX_COUNT} photos at a time.`,
    full: `This claim has as many photos as we can take through the site (${CLAIM_PHOTOS_MAX}). Please email any others to ${business.email}, with your reference.`,
    /** Every upload slot taken, or the site cannot store photos: nothing this visitor did. */
    busy: 'Many photos are being sent to us right now. Please try again in a minute.',
    /** This visitor's own budget (CONTACT_RATE_LIMIT, shared with the enquiry form): as the form is told. */
    'rate-limited': CONTACT_OUTCOME_MESSAGES.tooManyRequests,
    conflict: 'Other photos for this claim were arriving at the same moment. Please send these again.',
    unavailable: `We cannot take photos just now. Please try again later, or email them to ${business.email} with your reference.`,
    malformed: 'Your browser sent the photos in a way we cannot read. Please try again.',
  },
  roomLeft: (room: number) =>
    room === 0
      ? `This claim has as many photos as we can take through the site (${CLAIM_PHOTOS_MAX}). Please email any others to ${business.email}, with your reference.`
      : `This claim has room for ${room} more photo${room === 1 ? '' : 's'} through the site. Please send fewer, or email the others to ${business.email}.`,
} as const;

export type LaterPhotosOutcome = keyof typeof laterPhotosText.outcomes;

/** What a post of photos turned away at the upload door without the page's script is shown, before the site reads it. */
export const laterPhotosGatePages = {
  busy: { title: 'Many photos are arriving at once', text: laterPhotosText.outcomes.busy },
  'in-progress': {
    title: 'Your last photos are still being sent',
    text: 'Your last photos are still being sent. Please wait for them to finish.',
  },
  strikes: {
    title: 'Please try again later',
    text: `Several of your recent uploads did not reach us because the connection was too slow or dropped. Please try again later, or email the photos to ${business.email}.`,
  },
  'too-slow': {
    title: 'Your photos arrived too slowly',
    text: `The connection was too slow for the photos to reach us. Please try again with a better signal, or email them to ${business.email}.`,
  },
} as const;

/** A post of photos from a status page left open since before they moved under it: nothing of it read. */
export const laterPhotosRetiredPage = {
  title: 'This page is out of date',
  text: 'This page is out of date, so your photos have not reached us. Open the link in our latest email again, or look up your claim, and send them from there.',
} as const;

/** Around a page answered before the status page could be shown again (refusalPage). */
export const laterPhotosPageLinks = { back: 'Back to “Where’s my repair?”', call: 'Or call us on' } as const;
