// Renders the Health and Safety Policy to public/documents/health-and-safety-policy.pdf with Debian's Chromium.
// Run: npx tsx scripts/generate-policy-pdf.ts   (the PDF is committed; rerun after editing the text in
// content/health-safety-policy.ts or the business facts in content/business.ts)
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { business } from '../content/business';
import { policySections } from '../content/health-safety-policy';
import { chromiumArgs, chromiumPath } from './support/chromium';

const OUTPUT = 'public/documents/health-and-safety-policy.pdf';
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const name = escapeHtml(business.legalName);
const address = business.address.lines.map(escapeHtml).join(', ');

const sections = policySections(name);

const html = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Health and Safety Policy – ${name}</title>
<style>
  @page { size: A4; margin: 22mm 20mm 24mm; }
  body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 10.5pt; line-height: 1.5; color: #1e293b; }
  header { border-bottom: 3px solid #fbbf24; padding-bottom: 10px; margin-bottom: 18px; }
  h1 { color: #0a2c47; font-size: 22pt; margin: 0 0 4px; }
  .company { color: #0e3a5c; font-weight: bold; margin: 0; }
  .meta { color: #475569; font-size: 9pt; margin: 2px 0 0; }
  h2 { color: #0a2c47; font-size: 13pt; margin: 18px 0 6px; break-after: avoid; }
  p { margin: 0 0 8px; }
  .signature { margin-top: 28px; border-top: 1px solid #cbd5e1; padding-top: 12px; }
</style>
</head>
<body>
<header>
  <h1>Health and Safety Policy</h1>
  <p class="company">${name}</p>
  <p class="meta">${address} · ${escapeHtml(business.phone.display)} · ${escapeHtml(business.email)}</p>
  <p class="meta">Issue 7 · Effective from 1 September 2025 · Next review due September 2026</p>
</header>
${sections.map((section) => `<h2>${section.title}</h2>\n${section.body}`).join('\n')}
<div class="signature">
  <p>Signed on behalf of ${name}:</p>
  <p><strong>Managing Director</strong><br>1 September 2025</p>
  <p class="meta">This policy is brought to the attention of every employee at induction and is available to customers on request.</p>
</div>
</body>
</html>`;

const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
try {
  const page = await browser.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  mkdirSync('public/documents', { recursive: true });
  await page.pdf({
    path: OUTPUT,
    format: 'A4',
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: '<span></span>',
    footerTemplate: `<div style="font-size:8pt;color:#64748b;width:100%;text-align:center;">${name} · Health and Safety Policy · Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`,
  });
  console.log(`wrote ${OUTPUT}`);
} finally {
  await browser.close();
}
