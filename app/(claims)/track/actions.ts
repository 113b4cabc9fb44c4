'use server';

import { cookies, headers } from 'next/headers';
import type { TrackState } from '@/lib/claim-stages';
import { claimPages } from '@/server/claims/claim-pages';
import { claimSessionCookie } from '@/server/claims/link-exchange';

/**
 * The look-up's action: the status found, or why not, rendered in place (with or without the page's
 * script). A claim found also opens its status page (where photos sent without script come back to)
 * for a while, by the same cookie its link would be traded for.
 */
export async function lookUpClaimStatus(_previous: TrackState, form: FormData): Promise<TrackState> {
  const requestHeaders = await headers();
  const state = await claimPages().lookUp(form, requestHeaders);
  if (state.kind === 'found') {
    const session = await claimPages().sessionFor('status', state.status.reference);
    if (session) {
      const { name, value, options } = claimSessionCookie('status', session.enquiryId, session.value, requestHeaders.get('host'));
      (await cookies()).set(name, value, options);
    }
  }
  return state;
}
