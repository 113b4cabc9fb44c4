// The words people read about a portfolio link's and session's life say the figures the server holds
// them to (server/portfolio/portfolio-access.ts): content/ cannot import the server's constants.
import { describe, expect, it } from 'vitest';
import { portfolioLinkText } from '@/content/portfolio';
import {
  PORTFOLIO_LINK_HOURS_WORDS,
  PORTFOLIO_SESSION_DAYS_WORDS,
  portfolioLinkEmail,
  portfolioRequestText,
} from '@/content/portfolio-request';
import { PORTFOLIO_LINK_HOURS, PORTFOLIO_SESSION_DAYS } from '@/server/portfolio/portfolio-access';

describe('the words of a portfolio link’s life', () => {
  it('say the link’s hours and the session’s days the server holds them to', () => {
    expect(PORTFOLIO_LINK_HOURS_WORDS).toBe(`${PORTFOLIO_LINK_HOURS} hours`);
    expect(PORTFOLIO_SESSION_DAYS_WORDS).toBe(`${PORTFOLIO_SESSION_DAYS} days`);
  });

  it('are the ones the answer on /insurers, the e-mail and the used link’s page use', () => {
    expect(portfolioRequestText.answered).toContain(`once, within ${PORTFOLIO_LINK_HOURS} hours`);
    const email = portfolioLinkEmail.text('https://homecare.test/portfolio/open/x');
    expect(email).toContain(`once, within ${PORTFOLIO_LINK_HOURS} hours`);
    expect(email).toContain(`signed in for ${PORTFOLIO_SESSION_DAYS} days`);
    expect(portfolioLinkText.used.body).toContain(`once, within ${PORTFOLIO_LINK_HOURS} hours`);
  });
});
