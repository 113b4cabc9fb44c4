// `npx tsx --conditions=react-server scripts/generate-document-screenshots.ts`: the first and last pages
// of the drying documents for the longest record the limits allow, as PNGs in docs/screenshots/, by
// `pdftoppm` (Debian's poppler-utils: `apt-get install poppler-utils`). For the docs only; nothing
// depends on it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { renderCertificatePdf, renderStatementPdf } from '../server/claims/drying/pdf';
import { sampleDocuments, sampleIssued } from '../tests/support/drying-samples';

const out = path.join(process.cwd(), 'docs', 'screenshots');
const work = mkdtempSync(path.join(tmpdir(), 'homecare-document-screenshots-'));
try {
  const { statement, certificate } = sampleDocuments();
  for (const [name, bytes] of [
    ['drying-statement', await renderStatementPdf(statement, sampleIssued(statement.issuedAt))],
    ['drying-certificate', await renderCertificatePdf(certificate, sampleIssued(certificate.issuedAt))],
  ] as const) {
    const file = path.join(work, `${name}.pdf`);
    writeFileSync(file, bytes);
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    for (const [which, page] of [
      ['first', 1],
      ['last', pages],
    ] as const) {
      const prefix = path.join(work, `${name}-${which}`);
      execFileSync('pdftoppm', ['-png', '-r', '80', '-f', String(page), '-l', String(page), '-singlefile', file, prefix]);
      renameSync(`${prefix}.png`, path.join(out, `${name}-${which}.png`));
    }
    console.log(`${name}: ${pages} pages, first and last in docs/screenshots/${name}-{first,last}.png`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
