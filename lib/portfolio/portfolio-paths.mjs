// Where an instructing organisation's portfolio is, for the browser and the server alike (plain
// JavaScript, so server.mjs reads it with no compile step): the page, its CSV, and the link whose
// token is traded for the portfolio's cookie.
export const PORTFOLIO_PATH = '/portfolio';
export const PORTFOLIO_CSV_PATH = '/portfolio/claims.csv';
export const PORTFOLIO_LINK_PREFIX = '/portfolio/open/';
/** Who the portfolio's cookie signs in, asked by the contact form to say "Sending as …". */
export const PORTFOLIO_SENDER_PATH = '/api/portfolio/sender';

/**
 * A path with a portfolio link's token in it: never cached, indexed or sent on as a referrer.
 * @param {string} pathname a normalised path
 */
export const isPortfolioLinkPath = (pathname) => {
  if (!pathname.startsWith(PORTFOLIO_LINK_PREFIX)) return false;
  const [token, ...rest] = pathname.slice(PORTFOLIO_LINK_PREFIX.length).split('/');
  return Boolean(token) && rest.length === 0;
};

/**
 * The page and its CSV, opened by the portfolio's cookie: never cached or indexed.
 * @param {string} pathname a normalised path
 */
export const isPortfolioPagePath = (pathname) => pathname === PORTFOLIO_PATH || pathname === PORTFOLIO_CSV_PATH;
