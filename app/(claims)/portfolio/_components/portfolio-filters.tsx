import { portfolioPage } from '@/content/portfolio';
import { CLAIM_STAGES } from '@/lib/claim-stages';
import type { PortfolioFilter } from '@/lib/portfolio/portfolio-row';
import { PORTFOLIO_PATH } from '@/lib/portfolio/portfolio-paths.mjs';

const text = portfolioPage.filters;
const field = 'block rounded-md border border-slate-400 bg-white px-3 py-2';

/** The filters: a plain GET form to the page itself, so it works without script and the address says what it shows. */
export function PortfolioFilters({ filter, csvPath }: { filter: PortfolioFilter; csvPath: string }) {
  return (
    <div className="flex flex-wrap items-end gap-6">
      <form method="get" action={PORTFOLIO_PATH} className="flex flex-wrap items-end gap-4" data-testid="portfolio-filters">
        <fieldset className="flex flex-wrap items-end gap-4">
          <legend className="mb-2 font-semibold text-brand-900">{text.legend}</legend>
          <div>
            <label htmlFor="portfolio-stage" className="mb-1 block text-sm font-semibold text-slate-700">
              {text.stage}
            </label>
            <select id="portfolio-stage" name="stage" defaultValue={filter.stage ?? ''} className={field}>
              <option value="">{text.anyStage}</option>
              {CLAIM_STAGES.map((stage) => (
                <option key={stage.name} value={stage.name}>
                  {stage.words}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="portfolio-state" className="mb-1 block text-sm font-semibold text-slate-700">
              {text.state}
            </label>
            <select id="portfolio-state" name="state" defaultValue={filter.state} className={field}>
              {(['all', 'open', 'closed'] as const).map((state) => (
                <option key={state} value={state}>
                  {text.states[state]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-primary">
            {text.submit}
          </button>
        </fieldset>
      </form>
      <p className="space-y-1">
        <a href={csvPath} download className="font-semibold text-brand-700 underline" aria-describedby="portfolio-csv-hint">
          {portfolioPage.download}
        </a>
        <span id="portfolio-csv-hint" className="block text-sm text-slate-700">
          {portfolioPage.downloadHint}
        </span>
      </p>
    </div>
  );
}
