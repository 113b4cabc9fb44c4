import { cookies } from 'next/headers';
import { claimPages } from '@/server/claims/claim-pages';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';

// GET /claims/<reference>/survey.ics: the booked survey visit as a calendar invite, opened by the status page's cookie.
export async function GET(_request: Request, { params }: { params: Promise<{ reference: string }> }) {
  const { reference } = await params;
  const invite = await claimPages().surveyInvite(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.status)?.value);
  if (invite === null)
    return new Response('Not found', {
      status: 404,
      headers: { 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8' },
    });
  return new Response(invite, {
    headers: {
      'content-type': 'text/calendar; charset=utf-8; method=REQUEST',
      'content-disposition': `attachment; filename="survey-${reference}.ics"`,
      'cache-control': 'no-store',
    },
  });
}
