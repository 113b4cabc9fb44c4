import { exchangeLink } from '@/server/claims/link-exchange';

// GET /track/<status token>, the customer's link: traded for a cookie, then the status page by reference.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return exchangeLink('status', (await params).token, { host: request.headers.get('host') });
}
