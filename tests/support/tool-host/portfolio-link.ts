// A tool of the tests' own for the tool host: a new portfolio link token for each person id given, one
// a line, as the operator's `--link` would put it in a link (server/portfolio/portfolio-access.ts: one
// opening within 24 hours), in the database at DATABASE_URL.
import type { CommandIo } from '@/scripts/support/command-io';
import { withDatabase } from '@/scripts/support/command-io';
import { newPortfolioLink } from '@/server/portfolio/portfolio-access';

export async function portfolioLinkMain(people: readonly string[], io: CommandIo): Promise<number> {
  await withDatabase(async (db) => {
    for (const person of people) io.log(await newPortfolioLink(db, Number(person), Date.now()));
  });
  return 0;
}
