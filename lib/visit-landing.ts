/**
 * The page this visit landed on and the document's referrer, as the browser gave them, held in this
 * module's memory: the site's client-side navigation keeps them, a full reload starts a new visit.
 * Kept apart from their cleaning (lib/visit-attribution.ts), which only the contact form needs, so the
 * layout that records them on every page ships next to nothing.
 */
type RecordedLanding = { href: string; referrer: string };

let landing: RecordedLanding | null = null;

/** Records the landing of this visit; later calls in the same visit change nothing. */
export function recordLanding(href: string, referrer: string): void {
  landing ??= { href, referrer };
}

export function recordedLanding(): RecordedLanding | null {
  return landing;
}

/** Forgets the visit (tests only: a page load does it for visitors). */
export function forgetLanding(): void {
  landing = null;
}
