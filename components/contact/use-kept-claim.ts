'use client';

// The form's side of a claim kept on the phone: a send that found no signal is handed to the service
// worker (lib/offline/) with its key and its prepared photos, and when the worker has sent it, the form
// shows it sent as if its own try had succeeded.
import { useEffect, type Dispatch } from 'react';
import type { FormAction, Submission } from '@/components/contact/contact-form-state';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact';
import { ENQUIRY_KEY_FIELD, newEnquiryKey } from '@/lib/enquiry-key';
import type { KeepResult, KeptClaim } from '@/lib/offline/protocol';
import { KEPT_CLAIM_SENT_EVENT, type KeptClaimSent } from '@/lib/offline/kept-claim-events';
import { keepClaimOnPhone } from '@/lib/offline/kept-claims-client';

type KeptClaimOptions = {
  dispatch: Dispatch<FormAction>;
  enquiryKey: string;
  endpoint: string;
  /** The photos' previews and the draft let go once the enquiry is sent. */
  discardEntries: () => void;
};

export function useKeptClaim({ dispatch, enquiryKey, endpoint, discardEntries }: KeptClaimOptions) {
  useEffect(() => {
    const sent = (event: Event) => {
      const { detail } = event as CustomEvent<KeptClaimSent>;
      if (!enquiryKey || detail.enquiryKey !== enquiryKey) return;
      discardEntries();
      dispatch({
        type: 'sent',
        status: { kind: 'success', message: CONTACT_OUTCOME_MESSAGES.success, reference: detail.reference, urgent: detail.urgent },
        nextKey: newEnquiryKey(),
      });
    };
    window.addEventListener(KEPT_CLAIM_SENT_EVENT, sent);
    return () => window.removeEventListener(KEPT_CLAIM_SENT_EVENT, sent);
    // discardEntries is made anew each render and reads refs only; the key is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enquiryKey]);

  /** Whether a service worker looks after this page and would send to the form's endpoint (this site only: an API on another host is tried from the open page as before). */
  function canKeep(): boolean {
    if (typeof navigator === 'undefined' || !navigator.serviceWorker?.controller) return false;
    return new URL(endpoint, window.location.href).origin === window.location.origin;
  }

  /** Hands the submission to the service worker: 'kept', 'quota' (no room on the phone) or 'unavailable' (no worker). */
  async function keepOnPhone(current: Submission): Promise<KeepResult> {
    const key = current.fields[ENQUIRY_KEY_FIELD];
    if (!key || !canKeep()) return 'unavailable';
    try {
      const photos = await Promise.all(
        current.photos.map(async (photo) => {
          const prepared = await photo.prepared;
          return { name: photo.file.name, type: prepared.type, blob: prepared as Blob };
        }),
      );
      const claim: KeptClaim = { enquiryKey: key, endpoint, fields: current.fields, photos, urgent: current.urgent, keptAt: Date.now() };
      return await keepClaimOnPhone(claim);
    } catch {
      return 'unavailable';
    }
  }

  return { canKeep, keepOnPhone };
}
