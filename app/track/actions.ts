'use server';

import { headers } from 'next/headers';
import type { TrackState } from '@/lib/claim-stages';
import { claimPages } from '@/server/claims/claim-pages';

/** The look-up's action: the status found, or why not, rendered in place (with or without the page's script). */
export async function lookUpClaimStatus(_previous: TrackState, form: FormData): Promise<TrackState> {
  return claimPages().lookUp(form, await headers());
}
