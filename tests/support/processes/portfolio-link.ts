// Prints the portfolio link token of each person id in argv[3…] of the database at argv[2], one a line,
// as the operator's `--link` would put it in a link (server/portfolio/portfolio-access.ts).
import { openDatabase } from '@/server/base/db';
import { portfolioLinkToken } from '@/server/portfolio/portfolio-access';

const [url, ...people] = process.argv.slice(2);
const client = await openDatabase(url!);
for (const person of people) process.stdout.write(`${(await portfolioLinkToken(client, Number(person))) ?? ''}\n`);
client.close();
