import { business } from '@/content/business';
import { portfolioDeadLinkText as text } from '@/content/portfolio';

/** A portfolio link or page that no longer works: its words and the phone number, nothing else. */
export function PortfolioDeadLink() {
  return (
    <div className="mx-auto max-w-3xl space-y-4 px-4 py-12" data-testid="portfolio-link-refused">
      <h1 className="text-2xl font-bold text-brand-900">{text.title}</h1>
      <p className="text-lg text-slate-700">
        {text.callUs}{' '}
        <a href={`tel:${business.phone.e164}`} className="font-semibold text-brand-700 underline">
          {business.phone.display}
        </a>{' '}
        {text.forANewOne}
      </p>
    </div>
  );
}
