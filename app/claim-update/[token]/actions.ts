'use server';

import type { StaffUpdateState } from '@/lib/claim-stages';
import { claimPages } from '@/server/claims/claim-pages';

/** The staff page's Save, bound to the link's token by the page. */
export async function saveClaimUpdate(token: string, _previous: StaffUpdateState, form: FormData): Promise<StaffUpdateState> {
  return claimPages().saveUpdate(token, form);
}
