import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { PortfolioDeadLink } from '@/app/(claims)/portfolio/_components/portfolio-dead-link';
import { PortfolioFilters } from '@/app/(claims)/portfolio/_components/portfolio-filters';
import { PortfolioSummary } from '@/app/(claims)/portfolio/_components/portfolio-summary';
import { PortfolioTable } from '@/app/(claims)/portfolio/_components/portfolio-table';
import { portfolioPage } from '@/content/portfolio';
import { setPageStatus } from '@/server/edge/page-status.mjs';
import { PORTFOLIO_COOKIE } from '@/server/portfolio/portfolio-access';
import { portfolioView } from '@/server/portfolio/portfolio-page';
import { portfolioSource } from '@/server/portfolio/portfolio-source';

export const metadata: Metadata = { title: portfolioPage.title, robots: { index: false, follow: false } };

/** An instructing organisation's claims, opened by the portfolio's cookie (its link's token traded for it). */
export default async function PortfolioPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = (await cookies()).get(PORTFOLIO_COOKIE)?.value;
  const view = await portfolioView(session, await searchParams, { source: portfolioSource });
  if (!view) {
    setPageStatus(403);
    return <PortfolioDeadLink />;
  }
  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-12" data-testid="portfolio">
      <div className="space-y-3">
        <h1 className="text-3xl font-bold text-brand-900">{portfolioPage.heading(view.organisationName)}</h1>
        <p className="max-w-3xl text-lg text-slate-700">{portfolioPage.intro}</p>
      </div>
      <PortfolioSummary periods={view.periods} standards={view.standards} />
      <section aria-labelledby="portfolio-claims-heading" className="space-y-6">
        <h2 id="portfolio-claims-heading" className="text-xl font-bold text-brand-900">
          {portfolioPage.claimsHeading}
        </h2>
        <PortfolioFilters filter={view.filter} csvPath={view.csvPath} />
        <PortfolioTable rows={view.rows} standards={view.standards} />
      </section>
      <div className="space-y-2 text-sm text-slate-700">
        <p>{portfolioPage.workingTime}</p>
        <p>{portfolioPage.callUs}</p>
      </div>
    </div>
  );
}
