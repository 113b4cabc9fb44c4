import 'server-only';

/** The verification detail of an enquiry the form posted natively, before or without its JavaScript. */
export const SENT_WITHOUT_SCRIPT = 'sent without JavaScript: bot protection could not run';

/** The verification detail of a claim a phone kept with no signal and its service worker sent later, where bot protection is on. */
export const KEPT_ON_PHONE = 'kept on the phone with no signal and sent later by its service worker: bot protection could not run';
