'use client';

import { useActionState, useLayoutEffect, useReducer, useRef, type Dispatch, type FormEvent } from 'react';
import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import { FormFields, RecaptchaDisclosure, SendingControls } from '@/components/contact/contact-form-parts';
import { useEnquirySubmission } from '@/components/contact/use-enquiry-submission';
import { enteredFields, formReducer, initialFormState, type FormAction } from '@/components/contact/contact-form-state';
import { FORM_FIELDS, type FormErrors, type FormField } from '@/lib/contact-fields';
import { NATIVE_FORM_IDLE, NATIVE_FORM_PAGE, type NativeFormState } from '@/lib/native-form-state';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { apiBaseUrl, recaptchaSiteKey } from '@/lib/public-env';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

type ContactFormProps = {
  siteKey?: string;
  endpoint?: string;
  /** Whether photos can be sent: not when NEXT_PUBLIC_API_URL points at another host, which may not accept files. */
  acceptsPhotos?: boolean;
  /**
   * The emergency line a visitor whose answers make the enquiry urgent is offered with the success
   * message (content/business.ts, handed down by the page so the business facts stay out of the form's script).
   */
  emergencyPhone?: { display: string; e164: string };
  /** The server action a browser posts the form to before its JavaScript runs (app/(site)/contact/actions.ts). */
  sendWithoutScript?: (previous: NativeFormState, form: FormData) => Promise<NativeFormState>;
  apiRequest?: typeof defaultApiRequest;
  logger?: Logger;
};

const noScriptAction = async (state: NativeFormState) => state;

/** The form's controls by field: what a refused field's error focuses, and where Clear form leaves the focus. */
function useFieldRefs() {
  const inputs = useRef<Partial<Record<FormField, Control | null>>>({});
  const register = (field: FormField) => (element: Control | null) => {
    inputs.current[field] = element;
  };
  /** The first field with an error. */
  function focusFirst(fieldErrors: FormErrors) {
    const first = FORM_FIELDS.find((field) => fieldErrors[field]);
    if (first) inputs.current[first]?.focus();
  }
  const focusName = () => inputs.current.name?.focus();
  return { register, focusFirst, focusName };
}

/**
 * What the visitor typed, ticked or chose while the page was still plain HTML stays: the state starts
 * from the form's fields as they are, before anything renders them again (photos: PhotoPicker).
 */
function useTakeOver(dispatch: Dispatch<FormAction>) {
  const form = useRef<HTMLFormElement | null>(null);
  useLayoutEffect(() => {
    if (!form.current) return;
    const entries = enteredFields(new FormData(form.current));
    dispatch({ type: 'takenOver', entries: { ...entries, enquiryKey: entries.enquiryKey || newEnquiryKey() } });
  }, [dispatch]);
  return form;
}

/**
 * The contact form: name, e-mail, phone, subject and message checked as the visitor types and again on
 * Send, a reCAPTCHA token when a site key is set, one POST, its outcome shown; with the optional
 * insurance-claim details and photos.
 */
export function ContactForm({
  siteKey = recaptchaSiteKey,
  endpoint = `${apiBaseUrl}/api/contact`,
  acceptsPhotos = apiBaseUrl === '',
  emergencyPhone,
  sendWithoutScript = noScriptAction,
  apiRequest = defaultApiRequest,
  logger = defaultLogger,
}: ContactFormProps) {
  const [nativeState, nativeAction] = useActionState(sendWithoutScript, NATIVE_FORM_IDLE, NATIVE_FORM_PAGE);
  const [state, dispatch] = useReducer(formReducer, nativeState, initialFormState);
  const { register, focusFirst, focusName } = useFieldRefs();
  const form = useTakeOver(dispatch);

  const sending = useEnquirySubmission({
    state,
    dispatch,
    restoreDraft: nativeState.kind !== 'refused',
    siteKey,
    endpoint,
    acceptsPhotos,
    apiRequest,
    logger,
    onRefused: focusFirst,
  });

  function clearForm() {
    sending.clear();
    focusName();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The scripted send; the form's action (the native post) is only for a browser without it.
    event.preventDefault();
    await sending.submit();
  }

  return (
    <form
      ref={form}
      noValidate
      action={nativeAction}
      onSubmit={onSubmit}
      onFocus={sending.engage}
      onInput={sending.engage}
      aria-labelledby="contact-form-heading"
      className="space-y-5"
    >
      <FormFields
        state={state}
        dispatch={dispatch}
        register={register}
        acceptsPhotos={acceptsPhotos}
        onPhotosChange={sending.photosChanged}
      />
      <SendingControls
        state={state}
        emergencyPhone={emergencyPhone}
        onClear={clearForm}
        onCancel={sending.cancel}
        onSendNow={sending.sendNow}
      />
      {siteKey ? <RecaptchaDisclosure /> : null}
    </form>
  );
}
