import { cookies } from 'next/headers';
import { portfolioCsvResponse } from '@/server/portfolio/portfolio-csv';
import { portfolioSessionFrom } from '@/server/portfolio/portfolio-exchange';
import { portfolioSource } from '@/server/portfolio/portfolio-source';

// GET /portfolio/claims.csv?stage=…&state=…: the page's rows with the same filters, by the portfolio's cookie.
export async function GET(request: Request) {
  const jar = await cookies();
  const session = portfolioSessionFrom((name) => jar.get(name)?.value, request.headers.get('host'));
  return portfolioCsvResponse(session, new URL(request.url).searchParams, { source: portfolioSource });
}
