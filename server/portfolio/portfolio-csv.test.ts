// The portfolio's CSV: times with their offset, every cell quoted, formula escaping, the byte-order mark,
// and the writer taking rows as they come.
import { describe, expect, it } from 'vitest';
import type { PortfolioRow } from '@/lib/portfolio/portfolio-row';
import { csvRecord, londonIso, portfolioCsvWriter } from '@/server/portfolio/portfolio-csv';
import type { StandardColumn } from '@/server/portfolio/portfolio-page';

const row = (extra: Partial<PortfolioRow> = {}): PortfolioRow => ({
  reference: 'HC-ABC-DEF',
  claimNumber: 'EM-123',
  postcode: 'G65 0AA',
  damage: 'Water damage',
  stage: 'contacted',
  stageSince: '2026-01-05T09:15:00.000Z',
  instructedAt: '2026-01-02T16:30:00.000Z',
  firstContactAt: '2026-01-05T09:15:00.000Z',
  surveyAt: null,
  reportAt: null,
  dryingStartedAt: null,
  dryingEndedAt: null,
  completedAt: null,
  daysOpen: 3,
  surveyBookedFor: null,
  open: true,
  standards: { contact: { kind: 'met', words: 'met' }, survey: { kind: 'due', inMs: 5 * 3_600_000, words: 'due in 5 h' } },
  ...extra,
});
const STANDARDS: StandardColumn[] = [
  { key: 'contact', heading: 'Standard: first contact within 2 working hours' },
  { key: 'survey', heading: 'Standard: survey within 3 working days' },
];

/** A record as the writer writes it: every cell in double quotes, a quote inside doubled. */
const quoted = (cells: readonly (string | number)[]) => cells.map((cell) => `"${String(cell).replaceAll('"', '""')}"`).join(',');

async function written(rows: PortfolioRow[]): Promise<Buffer> {
  const writer = portfolioCsvWriter(STANDARDS);
  const chunks: Buffer[] = [];
  writer.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  const ended = new Promise((resolve) => writer.on('end', resolve));
  for (const each of rows) writer.write(csvRecord(each, STANDARDS));
  writer.end();
  await ended;
  return Buffer.concat(chunks);
}

describe('londonIso', () => {
  it('writes an instant on the London clock with its offset, in winter and in summer', () => {
    expect(londonIso('2026-01-02T16:30:00.000Z')).toBe('2026-01-02T16:30:00+00:00');
    expect(londonIso('2026-03-30T08:15:00.000Z')).toBe('2026-03-30T09:15:00+01:00');
    // Across the clocks going forward: 00:59 UTC is 00:59 GMT, 01:00 UTC is 02:00 BST.
    expect(londonIso('2026-03-29T00:59:00.000Z')).toBe('2026-03-29T00:59:00+00:00');
    expect(londonIso('2026-03-29T01:00:00.000Z')).toBe('2026-03-29T02:00:00+01:00');
    expect(Date.parse(londonIso('2026-07-01T23:30:00.000Z'))).toBe(Date.parse('2026-07-01T23:30:00.000Z'));
  });
});

describe('the portfolio CSV', () => {
  it('starts with a UTF-8 byte-order mark, then the headings and a record per row in order', async () => {
    const bytes = await written([
      row({ surveyBookedFor: { words: 'Tuesday 6 January, morning, 8am to 1pm', withinStandard: true } }),
      row({ reference: 'HC-GHJ-KMN', claimNumber: null, daysOpen: 0, standards: {} }),
    ]);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(
      quoted([
        'Our reference',
        'Your claim number',
        'Postcode',
        'Damage',
        'Stage',
        'Since',
        'Instructed',
        'First contact',
        'Survey',
        'Report',
        'Drying started',
        'Drying ended',
        'Completed',
        'Days open',
        'Survey booked for',
        'Booked within the survey standard',
        'Standard: first contact within 2 working hours',
        'Standard: survey within 3 working days',
      ]),
    );
    const times = ['2026-01-05T09:15:00+00:00', '2026-01-02T16:30:00+00:00', '2026-01-05T09:15:00+00:00', '', '', '', '', ''];
    expect(lines[1]).toBe(
      quoted([
        'HC-ABC-DEF',
        'EM-123',
        'G65 0AA',
        'Water damage',
        'Contacted',
        ...times,
        3,
        'Tuesday 6 January, morning, 8am to 1pm',
        'yes',
        'met',
        'due in 5 h',
      ]),
    );
    expect(lines[2]).toBe(quoted(['HC-GHJ-KMN', '', 'G65 0AA', 'Water damage', 'Contacted', ...times, 0, '', '', '', '']));
    expect(lines[3]).toBe('');
  });

  it('writes a cell a spreadsheet would run as a formula as text, with a leading apostrophe', async () => {
    const cases: [string, string][] = [
      ['=HYPERLINK("http://evil.example","Click")', `"'=HYPERLINK(""http://evil.example"",""Click"")"`],
      ['+44 141', `"'+44 141"`],
      ['-1+1', `"'-1+1"`],
      ['@SUM(A1)', `"'@SUM(A1)"`],
      ['\tTAB', `"'\tTAB"`],
      ['\rCR', `"'\rCR"`],
      ['EM-=1', '"EM-=1"'],
      // A spreadsheet that splits on `;` would otherwise run what follows it as a cell of its own.
      ['x;=1+1', '"x;=1+1"'],
      ['x\t=1+1', '"x\t=1+1"'],
    ];
    for (const [claimNumber, cell] of cases) {
      const text = (await written([row({ claimNumber })])).subarray(3).toString('utf8');
      const record = text.split('\r\n').slice(1).join('\r\n');
      expect(record.startsWith(`"HC-ABC-DEF",${cell},"G65 0AA",`), JSON.stringify(claimNumber)).toBe(true);
    }
  });

  it('reports back-pressure rather than holding everything: the writer asks to wait when its buffer fills', () => {
    const writer = portfolioCsvWriter(STANDARDS);
    let accepted = 0;
    while (writer.write(csvRecord(row(), STANDARDS)) && accepted < 100_000) accepted += 1;
    expect(accepted).toBeLessThan(1000);
    writer.destroy();
  });
});
