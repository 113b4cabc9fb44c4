import { business } from '@/content/business';
import { claimFormText } from '@/content/contact';
import { PORTFOLIO_SENDER_PATH } from '@/lib/portfolio/portfolio-paths.mjs';
import { portfolioColumns, portfolioDeadLinkText } from '@/content/portfolio';
import { instructionFields } from '../support/instruction';
import { axe } from './support/axe';
import { linkPath, sentEnquiry } from './support/claims';
import { openTestDatabase } from './support/database';
import { anotherPerson, insurersCommand, insurersCommandEndToEnd, openPortfolio, rowReferences } from './support/portfolio';
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { testBuildEnv } from './test-env';

// An organisation as the operator registers it and hands out its links, through `npm run insurers`
// against the test build's database; the working-hours clock as its page and CSV show it, on claims
// whose instruction and stage times are set here; and the operator's revocations ending open pages.
// The first test runs the command itself, as the operator does; the second runs it in process (the tool host).

const CONTACT = 'Standard: first contact within 2 working hours';
const SURVEY = 'Standard: survey within 3 working days';

/** An instruction sent through the contact form's API from `email`, with the cookies `request` holds. */
async function instructed(request: APIRequestContext, unique: string, email: string, claimNumber: string) {
  const { reference } = await sentEnquiry(request, unique, {
    ...instructionFields(email, 'insurer', claimNumber),
    insurer: 'Clock Mutual',
  });
  return reference;
}

/** Sets when a claim was instructed and the stages it reached, at these instants. */
async function setTimes(reference: string, receivedAt: string, changes: [stage: string, at: string][]) {
  const db = openTestDatabase(testBuildEnv.DATABASE_URL!);
  try {
    const updated = await db.execute({
      sql: 'UPDATE enquiries SET received_at = ?, received_ms = ? WHERE reference = ? RETURNING id',
      args: [receivedAt, Date.parse(receivedAt), reference],
    });
    const id = Number(updated.rows[0]!.id);
    for (const [stage, at] of changes)
      await db.execute({
        sql: "INSERT INTO claim_stage_changes (enquiry_id, stage, source, changed_at, changed_ms) VALUES (?, ?, 'staff', ?, ?)",
        args: [id, stage, at, Date.parse(at)],
      });
  } finally {
    db.close();
  }
}

/** The rows of the table as a visitor reads them: each cell under its column's heading. */
async function tableRows(page: Page): Promise<Record<string, string>[]> {
  const headings = await page.getByTestId('portfolio-table').getByRole('columnheader').allTextContents();
  const rows = await page.getByTestId('portfolio-row').all();
  return Promise.all(
    rows.map(async (row) => {
      const cells = await row.locator('th, td').allTextContents();
      return Object.fromEntries(headings.map((heading, index) => [heading, cells[index]!.trim()]));
    }),
  );
}

/** A CSV record whose every cell is quoted (a quote inside doubled), apart by commas, which a cell may hold; no line breaks in these. */
function quotedCells(line: string): string[] {
  const cells: string[] = [];
  let at = 0;
  while (at < line.length) {
    expect(line[at]).toBe('"');
    let cell = '';
    at += 1;
    for (;;) {
      const quote = line.indexOf('"', at);
      expect(quote).toBeGreaterThanOrEqual(at);
      cell += line.slice(at, quote);
      at = quote + 1;
      if (line[at] !== '"') break;
      cell += '"';
      at += 1;
    }
    cells.push(cell);
    if (at < line.length) expect(line[at++]).toBe(',');
  }
  return cells;
}

/** The CSV's records, each cell under its heading. */
function csvRows(text: string): Record<string, string>[] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [headings, ...records] = text.slice(1).trimEnd().split('\r\n').map(quotedCells);
  return records.map((cells) => Object.fromEntries(headings!.map((heading, index) => [heading, cells[index]!])));
}

test('an organisation registered and linked through `npm run insurers`: the working-hours clock, on the page and in the CSV', async ({
  page,
  request,
}) => {
  // Each run of the command starts tsx afresh, a few seconds apiece on a busy machine: hence a minute.
  test.setTimeout(60_000);
  const unique = `${Date.now()}`;
  const name = `Clock Mutual ${unique}`;
  const domain = `clock-${unique}.example`;
  const added = await insurersCommandEndToEnd('--add', name, '--domain', domain, '--standard', 'contact=2h', '--standard', 'survey=3wd');
  expect(added.split('\n').slice(0, 5)).toEqual([
    `Registered ${name}.`,
    `  domains: ${domain}`,
    'Standards in force:',
    '  contact (received to contacted): 2 working hours, 2h',
    '  survey (received to surveyed): 3 working days, 3wd',
  ]);

  const link = await insurersCommandEndToEnd('--link', domain, '--address', `desk@${domain}`);
  expect(link.split('\n')[1]).toBe(`For desk@${domain} at ${name}: it opens once, within 24 hours. Give it to them only.`);
  await openPortfolio(page, linkPath(link, '/portfolio/open/').split('/').pop()!);
  // Sent signed in with the portfolio's cookie (the page's own requests share it): proof that the
  // instructions are the organisation's, so its view shows them.
  // Across a weekend: Friday 16:30 to Monday 09:15 is 1.75 working hours (GMT).
  const weekend = await instructed(page.request, `clock-${unique}-weekend`, `desk@${domain}`, 'CM-WEEKEND');
  await setTimes(weekend, '2026-11-06T16:30:00.000Z', [
    ['contacted', '2026-11-09T09:15:00.000Z'],
    // 3 working days from Friday end at Wednesday's close: Thursday 10:00 is 2 working hours late.
    ['surveyed', '2026-11-12T10:00:00.000Z'],
  ]);
  // Across a Scottish bank holiday: Friday 2 January 2026 is one, so the clock starts Monday 08:00.
  const holiday = await instructed(page.request, `clock-${unique}-holiday`, `desk@${domain}`, 'CM-HOLIDAY');
  await setTimes(holiday, '2026-01-02T16:00:00.000Z', [
    ['contacted', '2026-01-05T09:30:00.000Z'],
    // 3 working days from Monday end at Thursday's close.
    ['surveyed', '2026-01-08T16:00:00.000Z'],
  ]);
  // Across the clocks going forward on Sunday 29 March 2026: Friday 16:30 GMT to Monday 10:00 BST
  // (09:00 UTC) is 0.5 + 2 = 2.5 working hours, 30 minutes over.
  const clocks = await instructed(page.request, `clock-${unique}-clocks`, `desk@${domain}`, 'CM-CLOCKS');
  await setTimes(clocks, '2026-03-27T16:30:00.000Z', [
    ['contacted', '2026-03-30T09:00:00.000Z'],
    ['surveyed', '2026-04-01T08:00:00.000Z'],
  ]);

  // The same instruction from anyone else: an address at the domain typed into the form, without the
  // cookie, is not proof. It is nowhere in the view, its CSV or its figures (each below has three rows).
  const forged = await instructed(request, `clock-${unique}-forged`, `anyone@${domain}`, 'CM-FORGED');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Claims from ${name}`);
  await expect(page.getByTestId('portfolio-table')).not.toContainText(forged);
  await expect(page.getByTestId('portfolio-table').getByRole('columnheader')).toHaveText([
    ...Object.values(portfolioColumns),
    CONTACT,
    SURVEY,
  ]);

  const shown = {
    [weekend]: { instructed: '6 Nov 2026, 16:30', contact: '9 Nov 2026, 09:15', survey: '12 Nov 2026, 10:00' },
    [clocks]: { instructed: '27 Mar 2026, 16:30', contact: '30 Mar 2026, 10:00', survey: '1 Apr 2026, 09:00' },
    [holiday]: { instructed: '2 Jan 2026, 16:00', contact: '5 Jan 2026, 09:30', survey: '8 Jan 2026, 16:00' },
  };
  expect(await tableRows(page)).toMatchObject([
    {
      [portfolioColumns.reference]: weekend,
      [portfolioColumns.claimNumber]: 'CM-WEEKEND',
      [portfolioColumns.stage]: 'Surveyed',
      [portfolioColumns.instructedAt]: shown[weekend]!.instructed,
      [portfolioColumns.firstContactAt]: shown[weekend]!.contact,
      [portfolioColumns.surveyAt]: shown[weekend]!.survey,
      [CONTACT]: 'met',
      [SURVEY]: 'missed by 2 h',
    },
    {
      [portfolioColumns.reference]: clocks,
      [portfolioColumns.claimNumber]: 'CM-CLOCKS',
      [portfolioColumns.instructedAt]: shown[clocks]!.instructed,
      [portfolioColumns.firstContactAt]: shown[clocks]!.contact,
      [portfolioColumns.surveyAt]: shown[clocks]!.survey,
      [CONTACT]: 'missed by 30 min',
      [SURVEY]: 'met',
    },
    {
      [portfolioColumns.reference]: holiday,
      [portfolioColumns.claimNumber]: 'CM-HOLIDAY',
      [portfolioColumns.instructedAt]: shown[holiday]!.instructed,
      [portfolioColumns.firstContactAt]: shown[holiday]!.contact,
      [portfolioColumns.surveyAt]: shown[holiday]!.survey,
      [CONTACT]: 'met',
      [SURVEY]: 'met',
    },
  ]);

  // The same rows in the CSV, times in ISO 8601 with the London offset of their day.
  const csv = await page.request.get('/portfolio/claims.csv');
  expect(csv.status()).toBe(200);
  expect(csvRows(await csv.text())).toMatchObject([
    {
      [portfolioColumns.reference]: weekend,
      [portfolioColumns.instructedAt]: '2026-11-06T16:30:00+00:00',
      [portfolioColumns.firstContactAt]: '2026-11-09T09:15:00+00:00',
      [portfolioColumns.surveyAt]: '2026-11-12T10:00:00+00:00',
      [CONTACT]: 'met',
      [SURVEY]: 'missed by 2 h',
    },
    {
      [portfolioColumns.reference]: clocks,
      [portfolioColumns.instructedAt]: '2026-03-27T16:30:00+00:00',
      [portfolioColumns.firstContactAt]: '2026-03-30T10:00:00+01:00',
      [portfolioColumns.surveyAt]: '2026-04-01T09:00:00+01:00',
      [CONTACT]: 'missed by 30 min',
      [SURVEY]: 'met',
    },
    {
      [portfolioColumns.reference]: holiday,
      [portfolioColumns.instructedAt]: '2026-01-02T16:00:00+00:00',
      [portfolioColumns.firstContactAt]: '2026-01-05T09:30:00+00:00',
      [portfolioColumns.surveyAt]: '2026-01-08T16:00:00+00:00',
      [CONTACT]: 'met',
      [SURVEY]: 'met',
    },
  ]);
});

async function expectDead(page: Page) {
  const answer = await page.reload();
  expect(answer?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(portfolioDeadLinkText.title);
  await expect(page.getByTestId('portfolio-link-refused')).toHaveText(
    `${portfolioDeadLinkText.title}Call us on ${business.phone.display} for a new one.`,
  );
  await expect(page.getByTestId('portfolio')).toHaveCount(0);
}

test('a survey booked on a claim shows in its organisation’s view and CSV, with whether its window is within the survey standard', async ({
  page,
}) => {
  const unique = `${Date.now()}`;
  const domain = `booked-${unique}.example`;
  await insurersCommand('--add', `Booked Mutual ${unique}`, '--domain', domain, '--standard', 'survey=3wd');
  await openPortfolio(
    page,
    linkPath(await insurersCommand('--link', domain, '--address', `desk@${domain}`), '/portfolio/open/')
      .split('/')
      .pop()!,
  );
  const soon = await instructed(page.request, `booked-${unique}-soon`, `desk@${domain}`, 'BK-SOON');
  const late = await instructed(page.request, `booked-${unique}-late`, `desk@${domain}`, 'BK-LATE');
  // Instructed on Thursday 26 November 2026: three working days end on Tuesday 1 December, Monday
  // 30 November being St Andrew's Day.
  for (const reference of [soon, late])
    await setTimes(reference, '2026-11-26T09:00:00.000Z', [['survey-booked', '2026-11-26T10:00:00.000Z']]);
  const db = openTestDatabase(testBuildEnv.DATABASE_URL!);
  try {
    for (const [reference, date, window] of [
      [soon, '2026-12-01', 'am'],
      [late, '2026-12-03', 'pm'],
    ] as const)
      await db.execute({
        sql: `INSERT INTO survey_appointments (enquiry_id, uid, date, window, status, booked_by, created_ms, updated_ms)
          SELECT id, ?, ?, ?, 'booked', 'customer', 0, 0 FROM enquiries WHERE reference = ?`,
        args: [`${reference}@test`, date, window, reference],
      });
  } finally {
    db.close();
  }
  await page.reload();
  const expected = {
    [soon]: {
      [portfolioColumns.surveyBookedFor]: 'Tuesday 1 December, morning, 8am to 1pm',
      [portfolioColumns.surveyBookedWithinStandard]: 'yes',
    },
    [late]: {
      [portfolioColumns.surveyBookedFor]: 'Thursday 3 December, afternoon, 12pm to 5pm',
      [portfolioColumns.surveyBookedWithinStandard]: 'no',
    },
  };
  const byReference = (rows: Record<string, string>[]) =>
    Object.fromEntries(
      rows.map((row) => [
        row[portfolioColumns.reference],
        {
          [portfolioColumns.surveyBookedFor]: row[portfolioColumns.surveyBookedFor],
          [portfolioColumns.surveyBookedWithinStandard]: row[portfolioColumns.surveyBookedWithinStandard],
        },
      ]),
    );
  expect(byReference(await tableRows(page))).toEqual(expected);
  expect(byReference(csvRows(await (await page.request.get('/portfolio/claims.csv')).text()))).toEqual(expected);
});

test('`--revoke-address` ends one person’s open page and leaves a colleague’s; `--revoke` then ends every one', async ({
  page,
  browser,
}) => {
  const unique = `${Date.now()}`;
  const name = `Leaver Adjusters ${unique}`;
  const domain = `leavers-${unique}.example`;
  const [ann, bob] = [`ann@${domain}`, `bob@${domain}`];
  await insurersCommand('--add', name, '--domain', domain);
  const annToken = linkPath(await insurersCommand('--link', domain, '--address', ann), '/portfolio/open/')
    .split('/')
    .pop()!;
  const bobToken = linkPath(await insurersCommand('--link', domain, '--address', bob), '/portfolio/open/')
    .split('/')
    .pop()!;

  await openPortfolio(page, annToken);
  // Sent by Ann signed in (her page's requests carry its cookie): the organisation's claim.
  const reference = await instructed(page.request, `leavers-${unique}`, `claims@${domain}`, 'LA-1');
  await page.reload();
  const colleague = await anotherPerson(browser);
  try {
    await openPortfolio(colleague, bobToken);
    expect(await rowReferences(page)).toEqual([reference]);
    expect(await rowReferences(colleague)).toEqual([reference]);

    expect((await insurersCommand('--revoke-address', ann)).trim()).toBe(
      `The portfolio link of ${ann} and any page open with it have stopped working (${name}).`,
    );
    await expectDead(page);
    await colleague.reload();
    expect(await rowReferences(colleague)).toEqual([reference]);
    // Ann's link itself is ended too: opened again, it sets nothing and moves on to the same answer.
    await page.goto(`/portfolio/open/${annToken}`);
    await expect(page).toHaveURL(/\/portfolio$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(portfolioDeadLinkText.title);

    const revoked = (await insurersCommand('--revoke', domain)).trimEnd().split('\n');
    expect(revoked).toEqual([
      `Every portfolio link of ${name} and every page open with one has stopped working.`,
      'Links ended (1):',
      expect.stringMatching(new RegExp(`^  ${bob.replaceAll('.', '\\.')}, last used \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC$`)),
      `Give a new one with --link ${domain} [--address EMAIL].`,
    ]);
    await expectDead(colleague);
    expect((await colleague.request.get('/portfolio/claims.csv')).status()).toBe(403);
  } finally {
    await colleague.context().close();
  }
});

test('registered again without a domain, that domain’s person’s open page ends; `--suspend` ends every page until `--resume`', async ({
  page,
  browser,
}) => {
  const unique = `${Date.now()}`;
  const name = `Moving Adjusters ${unique}`;
  const [kept, moved] = [`kept-${unique}.example`, `moved-${unique}.example`];
  const [ann, bob] = [`ann@${kept}`, `bob@${moved}`];
  await insurersCommand('--add', name, '--domain', kept, '--domain', moved);
  const tokenOf = async (domain: string, address: string) =>
    linkPath(await insurersCommand('--link', domain, '--address', address), '/portfolio/open/')
      .split('/')
      .pop()!;
  await openPortfolio(page, await tokenOf(kept, ann));
  const colleague = await anotherPerson(browser);
  try {
    await openPortfolio(colleague, await tokenOf(moved, bob));
    const again = (await insurersCommand('--add', name, '--domain', kept)).split('\n');
    expect(again.slice(0, 5)).toEqual([
      `Updated ${name}.`,
      `  domains: ${kept}`,
      `  no longer its domains: ${moved} (the claims they sent stay its own)`,
      'Links and open pages ended at those domains (1):',
      expect.stringMatching(new RegExp(`^  ${bob.replaceAll('.', '\\.')}, last used \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC$`)),
    ]);
    await expectDead(colleague);
    await page.reload();
    await expect(page.getByTestId('portfolio')).toBeVisible();

    const suspended = (await insurersCommand('--suspend', kept)).split('\n');
    expect(suspended[0]).toBe(`${name} is suspended: its links and open pages have stopped working, and no link can be asked for.`);
    await expectDead(page);
    // Resumed: nothing comes back by itself (every session ended), but a new link opens again.
    await insurersCommand('--resume', kept);
    await expectDead(page);
    await openPortfolio(page, await tokenOf(kept, ann));
    await expect(page.getByTestId('portfolio')).toBeVisible();
    // Its sessions, as the operator sees them: this one, in Chromium.
    const log = await insurersCommand('--log', kept);
    expect(log).toContain(`Signed in to the portfolio of ${name} (1), newest first:`);
    expect(log).toMatch(new RegExp(`Chrome +${ann.replaceAll('.', '\\.')}`));
  } finally {
    await colleague.context().close();
  }
});

/** The contact form's answer to who is signed in, once "Loss adjuster" is chosen in its claim part. */
async function chooseLossAdjuster(page: Page) {
  const asked = page.waitForResponse((response) => response.url().endsWith(PORTFOLIO_SENDER_PATH));
  await page.goto('/contact');
  await page.getByRole('checkbox', { name: 'This is about an insurance claim' }).check();
  await page.getByLabel('Who is getting in touch', { exact: true }).selectOption({ label: 'Loss adjuster' });
  const answer = await asked;
  expect(answer.headers()['cache-control']).toBe('no-store');
  return answer.json() as Promise<{ sender: unknown }>;
}

test('the contact form says whom an instruction is sent as while its sender is signed in, and nothing to anyone else', async ({
  page,
  browser,
}) => {
  const unique = `${Date.now()}`;
  const name = `Sender Adjusters ${unique}`;
  const domain = `sender-${unique}.example`;
  await insurersCommand('--add', name, '--domain', domain);
  const token = linkPath(await insurersCommand('--link', domain, '--address', `desk@${domain}`), '/portfolio/open/')
    .split('/')
    .pop()!;
  await openPortfolio(page, token);

  expect(await chooseLossAdjuster(page)).toEqual({ sender: { email: `desk@${domain}`, organisation: name } });
  await expect(page.getByTestId('signed-in-sender')).toHaveText(claimFormText.sendingAs(`desk@${domain}`, name));
  expect((await axe(page).analyze()).violations).toEqual([]);

  const stranger = await anotherPerson(browser);
  try {
    expect(await chooseLossAdjuster(stranger)).toEqual({ sender: null });
    await expect(stranger.getByTestId('signed-in-sender')).toHaveCount(0);
  } finally {
    await stranger.context().close();
  }

  // Revoked, the cookie signs in nobody: the form says nothing.
  await insurersCommand('--revoke-address', `desk@${domain}`);
  expect(await chooseLossAdjuster(page)).toEqual({ sender: null });
  await expect(page.getByTestId('signed-in-sender')).toHaveCount(0);
});
