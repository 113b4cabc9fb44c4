'use client';

import { PhotoPicker } from '@/components/contact/photo-picker';
import { SendProgress } from '@/components/contact/send-progress';
import { laterPhotosText } from '@/content/later-photos';
import { laterPhotosPath } from '@/lib/claim-paths.mjs';
import { useLaterPhotosSend, type LaterPhotosNotice } from '@/app/(claims)/_components/use-later-photos-send';

export type { LaterPhotosNotice };

/**
 * "Add photos to your claim", under its status: the enquiry form's own picker (each photo prepared on
 * the phone as it is chosen), sent under the claim's status page, where the page's cookie (HttpOnly,
 * SameSite=Strict: this is a same-site post) opens the claim; no token is in the page or the address.
 * Without the page's script it is a plain multipart form to the same address, which responds with the
 * status page again.
 */
export function AddPhotos({ reference, notice: initialNotice }: { reference: string; notice?: LaterPhotosNotice }) {
  const { photos, setPhotos, problem, setProblem, notice, progress, send, cancelSend, registerInput } = useLaterPhotosSend(
    reference,
    initialNotice,
  );
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
          register={registerInput}
        />
        {progress ? (
          <SendProgress progress={progress} onCancel={cancelSend} />
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
