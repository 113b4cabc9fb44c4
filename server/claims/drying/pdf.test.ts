// The drying documents' PDFs read back with a text extractor (pdf-parse, pdfjs underneath): names as
// typed in any Latin script, a character the font lacks as a visible mark, a long record across pages
// with its headings, footer and "Page n of m" on each, and the same bytes for the same input.
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import type { StoredMachine, StoredReading } from '@/lib/drying';
import { drynessCertificate, electricityStatement } from '@/lib/drying-documents';
import {
  documentDate,
  documentDateTime,
  documentFigure,
  renderCertificatePdf,
  renderStatementPdf,
  type IssuedMark,
} from '@/server/claims/drying/pdf';
import { sampleDocuments } from '@/tests/support/drying-samples';

/** Each page's text, its runs of white space made one space. */
async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const parser = new PDFParse({ data: bytes });
  try {
    return (await parser.getText()).pages.map((page) => page.text.replace(/\s+/g, ' ').trim());
  } finally {
    await parser.destroy();
  }
}

const issued: IssuedMark = {
  number: 'HC-YVG-Y5S-E2',
  issuedAt: '2026-11-20T10:30:00.000Z',
  verifyUrl: 'https://www.example.com/verify/7.AbCdEfGhIjKlMnOpQrStUvWxYz012345',
};

const on = '2026-11-10T09:00:00.000Z';
const off = '2026-11-17T09:00:00.000Z';
const machine: StoredMachine = { kind: 'dehumidifier', model: 'Ebac “café” édition', watts: 700, count: 1, on, off, kwh: null };
const reading = (location: string, visitAt: string, value: number): StoredReading => ({
  visitAt,
  location,
  material: 'plaster',
  scale: 'wme',
  value,
  goal: 12,
});
const places = ['Seòmar-cadail', 'Łazienka', 'Bathroom 🛁', 'Dŵr yn y seler'];
const readings = places.flatMap((place) => [reading(place, on, 28), reading(place, off, 11)]);
const now = Date.parse(issued.issuedAt);
const statement = electricityStatement({ reference: 'HC-YVG-Y5S', postcode: 'G67 1AA', machines: [machine], now, pencePerKwh: 24.5 })!;
const certificate = drynessCertificate({
  reference: 'HC-YVG-Y5S',
  postcode: 'G67 1AA',
  readings,
  machines: [machine],
  confirmed: { at: '2026-11-17T11:00:00.000Z', by: 'Agnieszka Wójcik' },
  now,
})!;

describe('names print as typed', () => {
  it('the statement: the machine’s model with its quotation marks and accents, in the table with its figures', async () => {
    const [page, ...more] = await pagesOf(await renderStatementPdf(statement, issued));
    expect(more).toHaveLength(0);
    const c = words.pdf.machineColumns;
    expect(page).toContain(`${c.machine} ${c.watts} ${c.on} ${c.off} ${c.hours} ${c.kwh} ${c.source}`);
    expect(page).toContain(
      `Ebac “café” édition dehumidifier 700 ${documentDateTime(on)} ${documentDateTime(off)} 168.0 117.6 ${words.pdf.sources.rated}`,
    );
    for (const line of [
      'Claim reference: HC-YVG-Y5S',
      'Property: postcode G67 1AA',
      'Document number: HC-YVG-Y5S-E2',
      'Total electricity used: 117.6 kWh',
      'At your unit rate of 24.5 p/kWh, the amount to claim: £28.81',
    ])
      expect(page).toContain(line);
  });

  it('the certificate: Gaelic, Polish and Welsh places, an emoji as a white square, and who confirmed drying', async () => {
    const [page, ...more] = await pagesOf(await renderCertificatePdf(certificate, issued));
    expect(more).toHaveLength(0);
    const first = `28 on ${documentDate(on)}`;
    const last = `11 on ${documentDate(off)}`;
    for (const place of ['Seòmar-cadail', 'Łazienka', 'Bathroom □', 'Dŵr yn y seler']) {
      expect(page).toContain(`${place} plaster %WME ${first} ${last} 12`);
      expect(page).toContain(`${documentDateTime(off)} ${place} plaster %WME 11 12`);
    }
    expect(page).not.toContain('?');
    expect(page).toContain(`Ebac “café” édition dehumidifier ${documentDateTime(on)} ${documentDateTime(off)}`);
    expect(page).toContain(`Drying confirmed on ${documentDate('2026-11-17T11:00:00.000Z')} by Agnieszka Wójcik.`);
  });
});

describe('every page', () => {
  it('the first page has the letterhead; every page the footer: date, number, address to check it, company, Page n of m', async () => {
    for (const pdf of [await renderStatementPdf(statement, issued), await renderCertificatePdf(certificate, issued)]) {
      const [page] = await pagesOf(pdf);
      expect(page).toContain(`${business.legalName} ${business.address.lines.join(' ')}`);
      expect(page).toContain(business.registration);
      expect(page).toContain(`Issued ${documentDateTime(issued.issuedAt)} · Document number HC-YVG-Y5S-E2`);
      expect(page).toContain(`To check these figures, open ${issued.verifyUrl}`);
      expect(page).toContain(`${business.legalName}, ${business.registration}`);
      expect(page).toContain('Page 1 of 1');
    }
  });

  it('the same record and mark give the same bytes', async () => {
    expect(
      Buffer.from(await renderCertificatePdf(certificate, issued)).equals(Buffer.from(await renderCertificatePdf(certificate, issued))),
    ).toBe(true);
    expect(Buffer.from(await renderStatementPdf(statement, issued)).equals(Buffer.from(await renderStatementPdf(statement, issued)))).toBe(
      true,
    );
  });
});

// Rendered and read back whole: seconds, more on a busy machine.
describe('the longest record the limits allow (120 visits of 40 locations and 20 machines)', { timeout: 60_000 }, () => {
  const { statement: longStatement, certificate: longCertificate } = sampleDocuments({}, { confirmedBy: 'Wójcik' });
  const mark = { ...issued, issuedAt: longCertificate.issuedAt };
  const footer = (page: number, pages: number) => [`Document number ${mark.number}`, mark.verifyUrl, `Page ${page} of ${pages}`];

  it('the certificate: every reading once, in whole rows, under the table’s headings on every page it runs to', async () => {
    const pages = await pagesOf(await renderCertificatePdf(longCertificate, mark));
    const r = words.pdf.readingColumns;
    const headings = `${r.at} ${r.location} ${r.material} ${r.scale} ${r.reading} ${r.goal}`;
    // A row is its six cells in order; the sample's places are up to three lines long, wrapped in their column.
    const row =
      /(\d{1,2} \w{3,4} \d{4}, \d\d:\d\d) ([^%]+?) (plaster|plasterboard|timber|screed|concrete|brick|block|stone|other) (%WME|relative) ([\d.,]+) ([\d.,]+)(?= \d{1,2} \w{3,4} \d{4}, \d\d:\d\d| Page \d+ of \d+ Issued)/g;
    const firstReadingsPage = pages.findIndex((page) => page.includes(`${words.pdf.readingsHeading} ${headings}`));
    expect(firstReadingsPage).toBeGreaterThan(0);
    let rows = 0;
    pages.forEach((page, index) => {
      for (const text of footer(index + 1, pages.length)) expect(page).toContain(text);
      if (index < firstReadingsPage) return;
      if (index > firstReadingsPage) expect(page).toContain(`${words.pdf.continued(words.pdf.readingsHeading)} ${headings}`);
      rows += [...page.matchAll(row)].length;
    });
    expect(rows).toBe(120 * 40);
    // 4,800 readings, 40 locations and 2,400 machines removed: at most about 60 rows fit a page.
    expect(pages.length).toBeGreaterThan((4800 + 40 + 2400) / 60);
    expect(pages.at(-1)).toContain('Utility floor 40');
    expect(pages.join(' ')).toContain(`by Wójcik.`);
  });

  it('the statement: 2,400 machines under the machines’ headings on every page', async () => {
    const pages = await pagesOf(await renderStatementPdf(longStatement, mark));
    const c = words.pdf.machineColumns;
    const headings = `${c.machine} ${c.watts} ${c.on} ${c.off} ${c.hours} ${c.kwh} ${c.source}`;
    expect(pages.length).toBeGreaterThan(2400 / 60);
    pages.forEach((page, index) => {
      for (const text of footer(index + 1, pages.length)) expect(page).toContain(text);
      if (index === pages.length - 1 && !page.includes(headings)) return;
      expect(page).toContain(
        index === 0
          ? `${words.statement.machinesHeading} ${headings}`
          : `${words.pdf.continued(words.statement.machinesHeading)} ${headings}`,
      );
    });
    const all = pages.join(' ');
    const numbers = [...all.matchAll(/ no\. (\d+) /g)].map((match) => Number(match[1]));
    expect(numbers).toEqual(Array.from({ length: 2400 }, (_, index) => index + 1));
    expect(all).toContain(`Total electricity used: ${documentFigure(longStatement.totalKwh)} kWh`);
  });
});
