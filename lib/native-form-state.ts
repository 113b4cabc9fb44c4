import type { FormErrors, FormField } from '@/lib/contact-fields';

/**
 * What the contact form's native post (no JavaScript yet) answers when the enquiry is not stored: the
 * page is rendered again with the message, each field's error under it and every typed value kept.
 * On success the server redirects instead (303 to /contact/sent).
 */
export type NativeFormState =
  | { kind: 'idle' }
  | {
      kind: 'refused';
      message: string;
      errors: FormErrors;
      values: Partial<Record<FormField, string>>;
      claimOpen: boolean;
      /** The enquiry's key (the one posted, or a new one): rendered into the form, so a second press is the same enquiry. */
      enquiryKey: string;
    };

export const NATIVE_FORM_IDLE: NativeFormState = { kind: 'idle' };

/** Where the form posts itself without JavaScript (its action attribute): the contact page, as server.mjs expects. */
export const NATIVE_FORM_PAGE = '/contact';

/** The claim part's checkbox: sent as `claim=open` when it is ticked. */
export const CLAIM_TOGGLE_FIELD = 'claim';
export const CLAIM_TOGGLE_VALUE = 'open';
