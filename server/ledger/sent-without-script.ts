import 'server-only';

/** The verification detail of an enquiry the form posted natively, before or without its JavaScript. */
export const SENT_WITHOUT_SCRIPT = 'sent without JavaScript: bot protection could not run';
