'use client';

import { useRef, useState, type FormEvent } from 'react';
import { PhotoPicker, type PickedPhoto } from '@/components/contact/photo-picker';
import { SendProgress, type UploadProgress } from '@/components/contact/send-progress';
import { laterPhotosText } from '@/content/claims';
import { laterPhotosPath } from '@/lib/claim-paths.mjs';
import { PHOTO_FIELD } from '@/lib/contact-fields';
import { uploadWithProgress } from '@/lib/api-client';

/** What the last send came to: added (a thank-you), or why not. */
export type LaterPhotosNotice = { kind: 'added' | 'refused'; message: string };

const STALL_TIMEOUT_MS = 45_000;

/**
 * "Add photos to your claim", under its status: the enquiry form's own picker (each photo prepared on
 * the phone as it is chosen), sent under the claim's status page, where the page's cookie (HttpOnly,
 * SameSite=Strict: this is a same-site post) opens the claim; no token is in the page or the address.
 * Without the page's script it is a plain multipart form to the same address, which answers with the
 * status page again.
 */
export function AddPhotos({ reference, notice: initialNotice }: { reference: string; notice?: LaterPhotosNotice }) {
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

  return (
    <section aria-labelledby="add-photos-heading" className="mt-10 space-y-4 border-t border-slate-300 pt-8" data-testid="add-photos">
      <h2 id="add-photos-heading" className="text-xl font-bold text-brand-900">
        {laterPhotosText.heading}
      </h2>
      <p className="text-slate-700">{laterPhotosText.intro}</p>
      <form method="post" action={laterPhotosPath(reference)} encType="multipart/form-data" onSubmit={send} className="space-y-4">
        <PhotoPicker
          label={laterPhotosText.label}
          photos={photos}
          onChange={setPhotos}
          error={problem}
          onProblem={setProblem}
          register={(element) => {
            input.current = element;
          }}
        />
        {progress ? (
          <SendProgress progress={progress} onCancel={() => cancel.current?.abort()} />
        ) : (
          <button type="submit" className="btn-primary">
            {laterPhotosText.submit}
          </button>
        )}
      </form>
      <div
        role="status"
        data-testid="add-photos-notice"
        className={notice?.kind === 'added' ? 'font-semibold text-green-800' : 'font-semibold text-red-700'}
      >
        {notice?.message ?? ''}
      </div>
    </section>
  );
}
