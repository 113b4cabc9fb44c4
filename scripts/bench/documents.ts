// `npm run bench:documents [-- --runs 7]`: the drying documents' PDFs for the largest record the limits
// allow (lib/drying.ts DRYING_LIMITS: 120 visits of 40 locations and 20 machines), rendered `runs` times
// each in this process after one warm-up: milliseconds (median, min, max; wall clock and this process's
// CPU), pages and bytes. Two records: the same 40 places read at every visit (a real claim's shape), and
// new places at every visit (the most rows a certificate can have). As a reference, bare pdf-lib: the
// same number of pages, each with as many lines of text in its standard Helvetica drawn by its own
// drawText, and saved. The server renders a PDF on its one event loop, so its time is what the download
// costs every other visitor. Not a test: the figures depend on the machine.
import { parseArgs } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { renderCertificatePdf, renderStatementPdf } from '../../server/claims/drying/pdf';
import { sampleDocuments, type SampleShape } from '../../tests/support/drying-samples';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Math.max(1, Number(values.runs) || 7);

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const summary = (values: readonly number[]) =>
  `median ${median(values).toFixed(0)}, min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}`;

/** Wall and CPU milliseconds of `render`, `runs` times after a warm-up, and its last output. */
async function timed(render: () => Promise<Uint8Array>) {
  await render();
  const wall: number[] = [];
  const cpu: number[] = [];
  let bytes: Uint8Array = new Uint8Array();
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    bytes = await render();
    const used = process.cpuUsage(cpuStarted);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall, cpu, bytes };
}

const pageCount = async (bytes: Uint8Array) => (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();

/** pdf-lib alone: `pages` pages of `linesPerPage` lines of text in Helvetica, saved. */
async function barePdfLib(pages: number, linesPerPage: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index += 1) {
    const page = pdf.addPage([595.28, 841.89]);
    for (let line = 0; line < linesPerPage; line += 1)
      page.drawText(`28 Sept 2026, 09:00  Kitchen wall ${line}  plaster  %WME  14.5  12`, { x: 48, y: 780 - line * 12, size: 8, font });
  }
  return pdf.save();
}

const shapes: [string, SampleShape][] = [
  ['the same 40 places at each visit', {}],
  ['40 new places at each visit', { newPlacesEachVisit: true }],
];

console.log(`Node ${process.version}; ${runs} runs after a warm-up; milliseconds`);
for (const [name, shape] of shapes) {
  const { statement, certificate } = sampleDocuments(shape);
  const issued = (issuedAt: string) => ({
    number: 'HC-YVG-Y5S-E2',
    issuedAt,
    verifyUrl: 'https://www.example.com/verify/1.AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  });
  console.log(
    `\n${name}: ${statement.machines.length} machines, ${certificate.locations.length} locations, ${certificate.readings.length} readings`,
  );
  for (const [label, render] of [
    ['statement', () => renderStatementPdf(statement, issued(statement.issuedAt))],
    ['certificate', () => renderCertificatePdf(certificate, issued(certificate.issuedAt))],
  ] as const) {
    const { wall, cpu, bytes } = await timed(render);
    const pages = await pageCount(bytes);
    const bare = await timed(() => barePdfLib(pages, 60));
    console.log(
      `${label.padEnd(12)} ${pages} pages, ${(bytes.length / 1024).toFixed(0)} KB: wall ${summary(wall)}; CPU ${summary(cpu)}` +
        ` | bare pdf-lib, ${pages} pages of 60 Helvetica lines: wall ${summary(bare.wall)}`,
    );
  }
}
