import { exchangePortfolioLink } from '@/server/portfolio/portfolio-exchange';

// GET /portfolio/open/<token>, an organisation's person's link: traded for the portfolio's cookie, then the page.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return exchangePortfolioLink((await params).token, { host: request.headers.get('host') });
}
