'use server';

import { headers } from 'next/headers';
import type { LinkRequestState } from '@/lib/portfolio/link-request';
import { linkRequests } from '@/server/portfolio/link-request';

/**
 * "Your claims with us": the form posted to the page itself (a server action), so it works before and
 * without the page's script and nothing typed goes in a URL. The answer is rendered in place.
 */
export async function askForPortfolioLink(_previous: LinkRequestState, form: FormData): Promise<LinkRequestState> {
  return linkRequests().fromForm(form, await headers());
}
