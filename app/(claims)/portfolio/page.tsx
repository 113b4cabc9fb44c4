import type { Metadata } from 'next';
import { cookies, headers } from 'next/headers';
import { emailNewLink, openMyClaims, signOutHere, signOutOfEveryBrowser } from '@/app/(claims)/portfolio/actions';
import { NewLinkForm } from '@/app/(claims)/portfolio/_components/new-link-form';
import { PortfolioDeadLink } from '@/app/(claims)/portfolio/_components/portfolio-dead-link';
import { PortfolioFilters } from '@/app/(claims)/portfolio/_components/portfolio-filters';
import { PortfolioSummary } from '@/app/(claims)/portfolio/_components/portfolio-summary';
import { PortfolioTable } from '@/app/(claims)/portfolio/_components/portfolio-table';
import { portfolioLinkText, portfolioPage } from '@/content/portfolio';
import { setPageStatus } from '@/server/edge/page-status.mjs';
import { portfolioEntry } from '@/server/portfolio/portfolio-entry';
import { PORTFOLIO_LINK_COOKIE, portfolioSessionFrom } from '@/server/portfolio/portfolio-exchange';
import { portfolioSource } from '@/server/portfolio/portfolio-source';

export const metadata: Metadata = { title: portfolioPage.title, robots: { index: false, follow: false } };

/**
 * An instructing organisation's claims, opened by the portfolio's session cookie; to a browser that
 * brought a link, the button that opens it (or sends a new one); to anyone else, that the link no longer works.
 */
export default async function PortfolioPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [jar, request] = await Promise.all([cookies(), headers()]);
  const session = portfolioSessionFrom((name) => jar.get(name)?.value, request.get('host'));
  const entry = await portfolioEntry(session, jar.get(PORTFOLIO_LINK_COOKIE)?.value, await searchParams, { source: portfolioSource });
  if (entry.kind === 'open-link')
    return (
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-12" data-testid="portfolio-open-link">
        <h1 className="text-3xl font-bold text-brand-900">{portfolioLinkText.open.heading}</h1>
        <p className="text-lg text-slate-700">{portfolioLinkText.open.body(entry.organisationName)}</p>
        <form action={openMyClaims}>
          <button type="submit" className="btn-primary">
            {portfolioLinkText.open.button}
          </button>
        </form>
      </div>
    );
  if (entry.kind === 'used-link') {
    setPageStatus(403);
    return (
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-12" data-testid="portfolio-link-used">
        <h1 className="text-2xl font-bold text-brand-900">{portfolioLinkText.used.title}</h1>
        {entry.office ? (
          <p className="text-lg text-slate-700">{portfolioLinkText.used.office}</p>
        ) : (
          <>
            <p className="text-lg text-slate-700">{portfolioLinkText.used.body}</p>
            <NewLinkForm send={emailNewLink} />
          </>
        )}
      </div>
    );
  }
  if (entry.kind === 'dead') {
    setPageStatus(403);
    return <PortfolioDeadLink />;
  }
  const { view } = entry;
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
      <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-6" data-testid="portfolio-sign-out">
        <form action={signOutHere}>
          <button type="submit" className="btn-secondary">
            {portfolioPage.signOut}
          </button>
        </form>
        <form action={signOutOfEveryBrowser}>
          <button type="submit" className="btn-secondary">
            {portfolioPage.signOutEverywhere}
          </button>
        </form>
        <p className="text-sm text-slate-700">{portfolioPage.signOutHint}</p>
      </div>
    </div>
  );
}
