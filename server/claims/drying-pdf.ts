import 'server-only';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { business } from '@/content/business';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { dryingText } from '@/content/drying';
import type { DrynessCertificate, ElectricityStatement } from '@/lib/drying-documents';

/**
 * The two drying documents as PDFs, drawn with pdf-lib in the PDF's standard Helvetica (nothing is
 * fetched or embedded: decision 0042). Text only, a line at a time, wrapped to the page.
 */

const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 56;
const TEXT_WIDTH = A4.width - 2 * MARGIN;
const INK = rgb(0.06, 0.09, 0.16);

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});
const figureFormat = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const documentDate = (iso: string) => dateFormat.format(new Date(iso));
export const documentDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));
export const documentFigure = (value: number) => figureFormat.format(value);
export const documentNumber = (value: number) => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 }).format(value);
export const documentPounds = (pence: number) => (pence / 100).toFixed(2);

/** The lines of the electricity statement, shared by the PDF and its tests. */
export function statementLines(statement: ElectricityStatement): Line[] {
  const s = words.statement;
  return [
    { text: s.title, style: 'title' },
    { text: words.reference(statement.reference) },
    { text: words.property(statement.postcode) },
    { text: words.period(documentDateTime(statement.from), documentDateTime(statement.to)) },
    { text: s.intro, style: 'small' },
    { text: s.machinesHeading, style: 'heading' },
    ...statement.machines.map((machine): Line => ({
      text: `${dryingText.machine(machine.count, machine.kind, machine.model)}: rated ${machine.watts} W; on ${documentDateTime(machine.on)}, ${
        machine.off ? `off ${documentDateTime(machine.off)}` : 'still running'
      }; ${documentFigure(machine.hours)} hours; ${documentFigure(machine.kwhUsed)} kWh (${s.source[machine.source]})`,
    })),
    ...(statement.running ? [{ text: s.running }] : []),
    { text: s.total(documentFigure(statement.totalKwh)), style: 'heading' },
    ...(statement.cost
      ? [
          { text: s.cost(documentNumber(statement.cost.pencePerKwh), documentPounds(statement.cost.pence)), style: 'heading' as const },
          { text: s.standingCharge },
        ]
      : [{ text: s.noRate }]),
  ];
}

/** The lines of the certificate of dryness, shared by the PDF and its tests. */
export function certificateLines(certificate: DrynessCertificate): Line[] {
  const c = words.certificate;
  return [
    { text: c.title, style: 'title' },
    { text: words.reference(certificate.reference) },
    { text: words.property(certificate.postcode) },
    { text: c.intro, style: 'small' },
    { text: c.locationsHeading, style: 'heading' },
    ...certificate.locations.map((location): Line => ({
      text: `${location.location}, ${location.material} (${words.scales[location.scale]}): first ${documentNumber(location.first.value)} on ${documentDate(location.first.at)}, last ${documentNumber(location.last.value)} on ${documentDate(location.last.at)}, goal ${documentNumber(location.goal)}`,
    })),
    { text: c.removedHeading, style: 'heading' },
    ...(certificate.removed.length === 0
      ? [{ text: c.noneRemoved }]
      : certificate.removed.map((machine): Line => ({
          text: `${dryingText.machine(machine.count, machine.kind, machine.model)}: ${documentDateTime(machine.on)} to ${documentDateTime(machine.off!)}`,
        }))),
    { text: c.confirmed(documentDate(certificate.confirmedAt), certificate.confirmedBy), style: 'heading' },
  ];
}

export type Line = { text: string; style?: 'title' | 'heading' | 'small' };

/** The footer every document ends with: dated, the company, and the address an insurer checks it at. */
const footerLines = (issuedAt: string, verifyUrl: string): Line[] => [
  { text: words.issued(documentDate(issuedAt)) },
  { text: words.company(business.legalName, business.registration) },
  { text: words.verify(verifyUrl) },
];

/** A PDF of `lines`, then the footer. Characters Helvetica's encoding lacks (an emoji in a model's name) print as "?". */
export async function renderDocument(title: string, lines: readonly Line[], issuedAt: string, verifyUrl: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setAuthor(business.legalName);
  pdf.setCreator(business.name);
  pdf.setProducer(business.name);
  pdf.setCreationDate(new Date(issuedAt));
  pdf.setModificationDate(new Date(issuedAt));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const encodable = new Set(regular.getCharacterSet());
  const clean = (text: string) =>
    [...text.replace(/[\u2018\u2019]/g, "'")].map((char) => (encodable.has(char.codePointAt(0)!) ? char : '?')).join('');

  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const write = (line: Line) => {
    const size = line.style === 'title' ? 18 : line.style === 'small' ? 9 : 10.5;
    const font: PDFFont = line.style === 'title' || line.style === 'heading' ? bold : regular;
    const leading = size * 1.4;
    const gap = line.style === 'title' ? 10 : line.style === 'heading' ? 8 : 3;
    y -= line.style === 'heading' ? 6 : 0;
    for (const wrapped of wrap(clean(line.text), font, size)) {
      if (y - leading < MARGIN) {
        page = pdf.addPage([A4.width, A4.height]);
        y = A4.height - MARGIN;
      }
      y -= leading;
      page.drawText(wrapped, { x: MARGIN, y, size, font, color: INK });
    }
    y -= gap;
  };
  lines.forEach(write);
  y -= 12;
  footerLines(issuedAt, verifyUrl).forEach(write);
  return pdf.save();
}

function wrap(text: string, font: PDFFont, size: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > TEXT_WIDTH) {
      out.push(line);
      line = word;
    } else line = next;
  }
  out.push(line);
  return out;
}

/** What marks a PDF as an issued document: its number, when it was issued, where an insurer verifies it. */
export type IssuedMark = { number: string; issuedAt: string; verifyUrl: string };

export const renderStatementPdf = (statement: ElectricityStatement, issued: IssuedMark) =>
  renderDocument(words.statement.title, statementLines(statement), issued.issuedAt, issued.verifyUrl);

export const renderCertificatePdf = (certificate: DrynessCertificate, issued: IssuedMark) =>
  renderDocument(words.certificate.title, certificateLines(certificate), issued.issuedAt, issued.verifyUrl);
