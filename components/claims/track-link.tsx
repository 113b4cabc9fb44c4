import Link from 'next/link';
import { trackLinkText } from '@/content/claims';
import { TRACK_PATH } from '@/lib/claim-paths.mjs';

/**
 * A line pointing to "Where's my repair?", after a lead-in that fits the page it is on. With an
 * enquiry's reference, the look-up opens with it filled in: it rides in the fragment, which the
 * browser keeps to itself, and the page stays the one prerendered.
 */
export function TrackLink({
  lead,
  reference,
  className = 'mt-8 text-slate-700',
}: {
  lead: string;
  reference?: string;
  className?: string;
}) {
  return (
    <p className={className}>
      {lead}{' '}
      <Link href={reference ? `${TRACK_PATH}#${reference}` : TRACK_PATH} className="prose-link" data-testid="track-link">
        {trackLinkText.label}
      </Link>
      .
    </p>
  );
}
