'use client';

// The form's checks before a send: the schema (and Google's script) fetched when the visitor first engages
// the form, never on page load, and the submission the checked values make.
import type { Dispatch } from 'react';
import { newSubmission, type FormAction, type FormState, type Submission } from '@/components/contact/contact-form-state';
import { CONTACT_FIELDS, ENQUIRY_FIELDS, HONEYPOT_FIELD, isUrgent, type EnquiryFields, type FormErrors } from '@/lib/contact-fields';
import type { Logger } from '@/lib/logger';
import { loadRecaptcha } from '@/lib/recaptcha-client';
import { attributionFor } from '@/lib/visit-attribution';
import { ENQUIRY_KEY_FIELD } from '@/lib/enquiry-key';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact';
import { LOG_SOURCE } from '@/components/contact/enquiry-post';

type ContactSchemaModule = typeof import('@/lib/contact-schema');
let contactSchemaModule: Promise<ContactSchemaModule> | null = null;

/** The form's one schema carries zod, most of the form's weight: fetched when a visitor starts on the form, not with the page. */
function loadContactSchema(): Promise<ContactSchemaModule> {
  contactSchemaModule ??= import('@/lib/contact-schema').catch((error: unknown) => {
    contactSchemaModule = null;
    throw error;
  });
  return contactSchemaModule;
}

/** The values that were given: the JSON body carries the optional fields only when they are set. */
const given = <T extends Record<string, string>>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')) as Partial<T>;

/** The fields sent: the spec's five message fields always, the claim's only those answered, and only while its part is open. */
function sentFields(fields: EnquiryFields, claimOpen: boolean): Partial<EnquiryFields> {
  const sent: Partial<EnquiryFields> = {};
  for (const field of ENQUIRY_FIELDS)
    if ((CONTACT_FIELDS as readonly string[]).includes(field) || (claimOpen && fields[field] !== '')) sent[field] = fields[field];
  return sent;
}

type EnquiryChecksOptions = {
  state: FormState;
  dispatch: Dispatch<FormAction>;
  siteKey: string;
  acceptsPhotos: boolean;
  logger: Logger;
  onRefused: (errors: FormErrors) => void;
};

export function useEnquiryChecks({ state, dispatch, siteKey, acceptsPhotos, logger, onRefused }: EnquiryChecksOptions) {
  const { fields, claimOpen, enquiryKey, photos, honeypot } = state;

  /** Google's script and the form's checks, fetched when the visitor first engages the form, never on page load. */
  function engage() {
    loadContactSchema().catch(() => undefined);
    if (siteKey) loadRecaptcha(siteKey).catch(() => undefined);
  }

  /** The submission the form's values make, or null when the checks failed (shown) or could not be loaded (reported). */
  async function checkedSubmission(): Promise<Submission | null> {
    let validateContact: ContactSchemaModule['validateContact'];
    try {
      ({ validateContact } = await loadContactSchema());
    } catch (error) {
      logger.error('Contact form checks could not be loaded', { source: LOG_SOURCE, category: 'network', error });
      dispatch({ type: 'failed', message: CONTACT_OUTCOME_MESSAGES.failed });
      return null;
    }
    const checked = validateContact(sentFields(fields, claimOpen));
    if (!checked.fields) {
      dispatch({ type: 'invalid', errors: checked.errors });
      onRefused(checked.errors);
      return null;
    }
    dispatch({ type: 'valid' });
    return {
      ...newSubmission(),
      // The JSON body, with the fields as the schema normalised them.
      fields: {
        ...sentFields(checked.fields, claimOpen),
        ...given(attributionFor(window.location.pathname)),
        [HONEYPOT_FIELD]: honeypot,
        [ENQUIRY_KEY_FIELD]: enquiryKey,
      },
      photos: acceptsPhotos ? photos : [],
      urgent: isUrgent(checked.fields),
    };
  }

  return { engage, checkedSubmission };
}
