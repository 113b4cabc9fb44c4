import Link from 'next/link';
import { trackLinkText } from '@/content/claims';
import { TRACK_PATH } from '@/lib/claim-paths.mjs';

/** A line pointing to "Where's my repair?", after a lead-in that fits the page it is on. */
export function TrackLink({ lead, className = 'mt-8 text-slate-700' }: { lead: string; className?: string }) {
  return (
    <p className={className}>
      {lead}{' '}
      <Link href={TRACK_PATH} className="prose-link">
        {trackLinkText.label}
      </Link>
      .
    </p>
  );
}
