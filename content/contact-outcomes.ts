// What the visitor is told after sending an enquiry, in a module of its own: the claim pages quote the
// rate-limit answer too, and importing all of the contact page's words would ship them with /track.
/** What the visitor is told after sending: success, too many requests (429), or a failure. */
export const CONTACT_OUTCOME_MESSAGES = {
  success: 'Your message has been sent successfully!',
  tooManyRequests: 'Too many requests. Please try again later.',
  failed: 'Failed to send message. Please try again or contact us directly.',
  failedWithoutMessage: 'Failed to send message',
  recaptchaLoad: 'Failed to load reCAPTCHA script',
} as const;
