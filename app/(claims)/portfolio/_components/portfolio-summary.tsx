import { portfolioPage } from '@/content/portfolio';
import type { PortfolioPeriod } from '@/lib/portfolio/portfolio-row';
import type { StandardColumn } from '@/server/portfolio/portfolio-page';
import { STANDARD_MEASURES } from '@/lib/portfolio/standards';

const text = portfolioPage.summary;
const hours = (value: number | null) => (value === null ? text.none : text.hours(value));

/** The last 30 and 90 days: one column each, a row per figure. */
export function PortfolioSummary({ periods, standards }: { periods: readonly PortfolioPeriod[]; standards: readonly StandardColumn[] }) {
  const cell = 'border-t border-slate-200 px-3 py-2';
  const figures: { label: string; value: (period: PortfolioPeriod) => string }[] = [
    { label: text.instructed, value: (period) => period.instructed.toLocaleString('en-GB') },
    { label: text.open, value: (period) => period.open.toLocaleString('en-GB') },
    { label: text.medianToContact, value: (period) => hours(period.medianToContactHours) },
    { label: text.medianToSurvey, value: (period) => hours(period.medianToSurveyHours) },
    ...standards.map(({ key }) => ({
      label: text.standardMet(STANDARD_MEASURES[key].heading),
      value: (period: PortfolioPeriod) => {
        const met = period.standardsMet[key];
        return met && met.share !== null && met.measured > 0 ? text.share(Math.round(met.share * 100), met.measured) : text.noneMeasured;
      },
    })),
  ];
  return (
    <section aria-labelledby="portfolio-summary-heading" className="space-y-3" data-testid="portfolio-summary">
      <h2 id="portfolio-summary-heading" className="text-xl font-bold text-brand-900">
        {text.heading}
      </h2>
      <table className="w-full max-w-2xl border-collapse rounded-md border border-slate-300 bg-white text-left text-sm">
        <thead>
          <tr>
            <td className="px-3 py-2" />
            {periods.map((period) => (
              <th key={period.days} scope="col" className="px-3 py-2">
                {text.period(period.days)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {figures.map((figure) => (
            <tr key={figure.label}>
              <th scope="row" className={`${cell} font-semibold text-brand-900`}>
                {figure.label}
              </th>
              {periods.map((period) => (
                <td key={period.days} className={cell}>
                  {figure.value(period)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
