'use client';

import { sendingText } from '@/content/contact';
import { formatBytes } from '@/lib/contact-fields';

/** An enquiry on its way up: bytes sent of all, and when the upload started (for the time left). */
export type UploadProgress = { sent: number; total: number; startedAt: number; at: number };

/** The estimate waits this long: the first seconds of an upload say little about its rate. */
const ESTIMATE_AFTER_MS = 3_000;

const QUARTERS = [25, 50, 75, 100] as const;

/** The last quarter an upload has reached, for screen readers: they hear four steps, not every change. */
function quarterReached(progress: UploadProgress): (typeof QUARTERS)[number] | null {
  const percent = progress.total > 0 ? (progress.sent / progress.total) * 100 : 0;
  return QUARTERS.findLast((step) => percent >= step) ?? null;
}

/** Seconds left at the rate so far; unknown in the first seconds. */
function secondsLeft(progress: UploadProgress): number | null {
  const elapsed = progress.at - progress.startedAt;
  if (elapsed < ESTIMATE_AFTER_MS || progress.sent <= 0 || progress.sent >= progress.total) return null;
  return ((progress.total - progress.sent) / progress.sent) * (elapsed / 1000);
}

/** The progress bar, its figures, the time left and Cancel, while an enquiry with photos goes up. */
export function SendProgress({ progress, onCancel }: { progress: UploadProgress; onCancel: () => void }) {
  const percent = progress.total > 0 ? Math.min(100, Math.floor((progress.sent / progress.total) * 100)) : 0;
  const figures = sendingText.progress(formatBytes(progress.sent), formatBytes(progress.total), percent);
  const left = secondsLeft(progress);
  const done = progress.total > 0 && progress.sent >= progress.total;
  const step = quarterReached(progress);
  return (
    <div className="rounded-md border border-slate-300 bg-slate-50 p-4" data-testid="send-progress">
      <p id="send-progress-label" className="font-semibold text-brand-900">
        {sendingText.progressLabel}
      </p>
      <div
        role="progressbar"
        aria-labelledby="send-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={figures}
        className="mt-2 h-3 w-full overflow-hidden rounded-full bg-slate-300"
      >
        <div className="h-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-2 text-sm text-slate-800" aria-hidden="true">
        {done ? sendingText.waiting : figures}
        {!done && left !== null ? ` · ${sendingText.timeLeft(left)}` : null}
      </p>
      <p className="sr-only" aria-live="polite">
        {step ? sendingText.steps[step] : ''}
      </p>
      <button
        type="button"
        onClick={onCancel}
        className="mt-3 rounded-md border border-slate-500 px-4 py-2 font-semibold text-brand-900 hover:bg-slate-100"
      >
        {sendingText.cancel}
      </button>
    </div>
  );
}
