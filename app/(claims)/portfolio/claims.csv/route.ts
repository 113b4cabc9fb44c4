import { cookies } from 'next/headers';
import { PORTFOLIO_COOKIE } from '@/server/portfolio/portfolio-access';
import { portfolioCsvResponse } from '@/server/portfolio/portfolio-csv';
import { portfolioSource } from '@/server/portfolio/portfolio-source';

// GET /portfolio/claims.csv?stage=…&state=…: the page's rows with the same filters, by the portfolio's cookie.
export async function GET(request: Request) {
  const session = (await cookies()).get(PORTFOLIO_COOKIE)?.value;
  return portfolioCsvResponse(session, new URL(request.url).searchParams, { source: portfolioSource });
}
