'use client';

import { useRef, useState, type FormEvent } from 'react';
import type { PickedPhoto } from '@/components/contact/photo-picker';
import type { UploadProgress } from '@/components/contact/send-progress';
import { laterPhotosText } from '@/content/later-photos';
import { laterPhotosPath } from '@/lib/claim-paths.mjs';
import { PHOTO_FIELD } from '@/lib/contact-fields';
import { uploadWithProgress } from '@/lib/api-client';

/** What the last send came to: added (a thank-you), or why not. */
export type LaterPhotosNotice = { kind: 'added' | 'refused'; message: string };

const STALL_TIMEOUT_MS = 45_000;

/**
 * The photos picked to add to a claim and their send: `send` is the form's submit handler (the
 * browser's own post is kept for a page without its script), `progress` the upload under way.
 */
export function useLaterPhotosSend(reference: string, initialNotice: LaterPhotosNotice | undefined) {
  const [photos, setPhotos] = useState<PickedPhoto[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const [notice, setNotice] = useState<LaterPhotosNotice | undefined>(initialNotice);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const cancel = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement | null>(null);

  // Set before the first await: a second press while the photos are gathered sends nothing more.
  const sending = useRef(false);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return;
    if (photos.length === 0) {
      setNotice({ kind: 'refused', message: laterPhotosText.outcomes.none });
      input.current?.focus();
      return;
    }
    sending.current = true;
    const controller = new AbortController();
    cancel.current = controller;
    const startedAt = Date.now();
    setNotice(undefined);
    setProgress({ sent: 0, total: 1, startedAt, at: startedAt });
    try {
      const body = new FormData();
      for (const file of await Promise.all(photos.map((photo) => photo.prepared))) body.append(PHOTO_FIELD, file, file.name);
      const response = await uploadWithProgress(laterPhotosPath(reference), {
        method: 'POST',
        body,
        headers: { Accept: 'application/json' },
        signal: controller.signal,
        stallTimeoutMs: STALL_TIMEOUT_MS,
        onUploadProgress: (sent, total) => setProgress({ sent, total, startedAt, at: Date.now() }),
      });
      const answer = (await response.json().catch(() => null)) as { success?: boolean; message?: string } | null;
      const message = answer?.message ?? laterPhotosText.outcomes.unavailable;
      setNotice({ kind: answer?.success ? 'added' : 'refused', message });
      if (answer?.success) {
        photos.forEach((photo) => URL.revokeObjectURL(photo.previewUrl));
        setPhotos([]);
      }
    } catch {
      setNotice({
        kind: 'refused',
        message: controller.signal.aborted ? laterPhotosText.cancelled : laterPhotosText.outcomes.unavailable,
      });
    } finally {
      sending.current = false;
      cancel.current = null;
      setProgress(null);
    }
  }

  const registerInput = (element: HTMLInputElement | null) => {
    input.current = element;
  };
  return { photos, setPhotos, problem, setProblem, notice, progress, send, cancelSend: () => cancel.current?.abort(), registerInput };
}
