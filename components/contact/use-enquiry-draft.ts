'use client';

// The draft kept on this device (lib/contact-draft.ts): brought back into the form after a reload, a
// closed tab or a crash, saved as the visitor types, its photos kept as they will be sent.
import { useEffect, useRef, type Dispatch } from 'react';
import { photoFromDraft, type PickedPhoto } from '@/components/contact/photo-picker';
import type { FormAction, FormState } from '@/components/contact/contact-form-state';
import { clearDraft, loadDraftFields, loadDraftPhotos, removeDraftPhoto, saveDraftFields, saveDraftPhoto } from '@/lib/contact-draft';

type EnquiryDraftOptions = Pick<FormState, 'fields' | 'claimOpen' | 'enquiryKey' | 'photos' | 'status'> & {
  dispatch: Dispatch<FormAction>;
  /** Whether a draft kept on the device may come back (not over a refused native post's values). */
  restoreDraft: boolean;
};

export function useEnquiryDraft({ fields, claimOpen, enquiryKey, photos, status, dispatch, restoreDraft }: EnquiryDraftOptions) {
  /** False until the draft kept on this device (if any) is back in the form: nothing is saved over it before. */
  const draftLoaded = useRef(false);

  useEffect(() => {
    if (!restoreDraft) {
      draftLoaded.current = true;
      return;
    }
    let cancelled = false;
    void (async () => {
      const fields = loadDraftFields();
      const kept = await loadDraftPhotos();
      if (cancelled) return;
      draftLoaded.current = true;
      if (!fields && kept.length === 0) return;
      dispatch({ type: 'draftRestored', fields, photos: kept.map(photoFromDraft) });
    })();
    return () => {
      cancelled = true;
    };
  }, [restoreDraft, dispatch]);

  // Kept on the phone by the service worker: its copy is the one sent, and deleted once the site has
  // it, so the draft goes now (a save still waiting with it), and nothing of the claim stays on the
  // phone after a send in the background with the page closed. An edit after it saves a draft again.
  const handedOver = status.kind === 'kept';
  const fieldsHandedOver = useRef<typeof fields | null>(null);
  useEffect(() => {
    if (!handedOver) return;
    fieldsHandedOver.current = fields;
    void clearDraft();
    // Only the moment of hand-over: the fields then are the ones the worker keeps.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handedOver]);

  useEffect(() => {
    if (!draftLoaded.current || fields === fieldsHandedOver.current) return;
    const timer = setTimeout(() => saveDraftFields({ savedAt: Date.now(), fields, claimOpen, enquiryKey }), 300);
    return () => clearTimeout(timer);
  }, [fields, claimOpen, enquiryKey, handedOver]);

  function photosChanged(next: PickedPhoto[]) {
    const kept = new Set(next.map((photo) => photo.id));
    for (const photo of photos) if (!kept.has(photo.id)) void removeDraftPhoto(photo.id);
    const known = new Set(photos.map((photo) => photo.id));
    for (const photo of next) {
      if (known.has(photo.id)) continue;
      // Kept on the device as it will be sent: downscaled, without its metadata.
      void photo.prepared.then((file) =>
        saveDraftPhoto({ id: photo.id, name: file.name, type: file.type, blob: file, savedAt: Date.now() }),
      );
    }
    dispatch({ type: 'photos', photos: next });
  }

  /** What goes with emptying the form: the photos' previews let go, and the draft on the device removed. */
  function discardEntries() {
    photos.forEach((photo) => URL.revokeObjectURL(photo.previewUrl));
    void clearDraft();
  }

  return { photosChanged, discardEntries };
}
