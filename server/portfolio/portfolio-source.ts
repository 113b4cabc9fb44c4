import 'server-only';
import { portfolioRows, portfolioSummary } from '@/server/portfolio/portfolio-rows';
import type { PortfolioSource } from '@/server/portfolio/portfolio-page';

/** The rows and the summary the page and the CSV are made of. */
export const portfolioSource: PortfolioSource = { rows: portfolioRows, summary: portfolioSummary };
