import Link from 'next/link';
import { deadLinkText } from '@/content/claims';
import { TRACK_PATH } from '@/lib/claim-paths.mjs';

/** A claim's link (or the page it opened) that no longer works: nothing of the claim, only how to get a new one. */
export function DeadLink({ purpose }: { purpose: 'status' | 'update' }) {
  return (
    <div className="mx-auto max-w-3xl space-y-4 px-4 py-12" data-testid="claim-link-refused">
      <h1 className="text-2xl font-bold text-brand-900">{deadLinkText.title}</h1>
      <p className="text-lg text-slate-700">{deadLinkText[purpose]}</p>
      {purpose === 'status' ? (
        <p>
          <Link href={TRACK_PATH} className="font-semibold text-brand-700 underline">
            {deadLinkText.lookUp}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
