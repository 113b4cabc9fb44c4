import 'server-only';
import { business } from '@/content/business';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { dryingText } from '@/content/drying';
import type { DrynessCertificate, ElectricityStatement } from '@/lib/drying-documents';
import type { StoredMachine } from '@/lib/drying';
import { renderLayout, type Block, type DocumentLayout } from '@/server/claims/drying/pdf-layout';

/**
 * The two drying documents as PDFs: a letterhead, the figures in tables that flow across pages, and on
 * every page the document's number, its date and the address where an insurer checks it. Drawn with
 * pdf-lib in DejaVu Sans, embedded as a subset, so names print as typed (decision 0048).
 */

/** What marks a PDF as an issued document: its number (e.g. "HC-YVG-Y5S-E2"), when it was issued, where an insurer verifies it. */
export type IssuedMark = { number: string; issuedAt: string; verifyUrl: string };

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
const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
/** `format`, remembered for the last few thousand times: a long record prints each visit's time dozens of times. */
function remembered(format: (iso: string) => string): (iso: string) => string {
  const seen = new Map<string, string>();
  return (iso) => {
    let out = seen.get(iso);
    if (out === undefined) {
      if (seen.size >= 5000) seen.clear();
      out = format(iso);
      seen.set(iso, out);
    }
    return out;
  };
}
export const documentDate = remembered((iso) => dateFormat.format(new Date(iso)));
export const documentDateTime = remembered((iso) => dateTimeFormat.format(new Date(iso)));
export const documentFigure = (value: number) => figureFormat.format(value);
export const documentNumber = (value: number) => numberFormat.format(value);
export const documentPounds = (pence: number) => (pence / 100).toFixed(2);

const p = words.pdf;
const machineName = (machine: StoredMachine) => dryingText.machine(machine.count, machine.kind, machine.model);

/** What both documents share: the letterhead, the metadata and the footer of every page. */
function frame(title: string, issued: IssuedMark, blocks: Block[]): DocumentLayout {
  return {
    info: {
      title: `${title} ${issued.number}`,
      subject: title,
      author: business.legalName,
      creator: business.name,
      date: new Date(issued.issuedAt),
    },
    letterhead: {
      name: business.legalName,
      lines: [...business.address.lines, p.contact(business.phone.display, business.email), business.registration],
    },
    blocks,
    footer: {
      lines: [
        p.issued(documentDateTime(issued.issuedAt), issued.number),
        words.verify(issued.verifyUrl),
        words.company(business.legalName, business.registration),
      ],
      page: p.page,
    },
    continued: p.continued,
  };
}

const issuedFacts = (issued: IssuedMark) =>
  [
    [p.facts.number, issued.number],
    [p.facts.issued, documentDateTime(issued.issuedAt)],
  ] as const;

export function renderStatementPdf(statement: ElectricityStatement, issued: IssuedMark): Promise<Uint8Array> {
  const s = words.statement;
  const c = p.machineColumns;
  const blocks: Block[] = [
    { kind: 'title', text: s.title },
    {
      kind: 'facts',
      rows: [
        [p.facts.reference, statement.reference],
        [p.facts.property, p.postcode(statement.postcode)],
        [p.facts.period, p.period(documentDateTime(statement.from), documentDateTime(statement.to))],
        ...issuedFacts(issued),
      ],
    },
    { kind: 'text', text: s.intro, style: 'small' },
    {
      kind: 'table',
      heading: s.machinesHeading,
      columns: [
        { heading: c.machine, width: 2.7 },
        { heading: c.watts, width: 1.1, align: 'right' },
        { heading: c.on, width: 2.15 },
        { heading: c.off, width: 2.15 },
        { heading: c.hours, width: 0.85, align: 'right' },
        { heading: c.kwh, width: 0.95, align: 'right' },
        { heading: c.source, width: 1.75 },
      ],
      rows: statement.machines.map((machine) => [
        machineName(machine),
        String(machine.watts),
        documentDateTime(machine.on),
        machine.off ? documentDateTime(machine.off) : p.stillRunning,
        documentFigure(machine.hours),
        documentFigure(machine.kwhUsed),
        p.sources[machine.source],
      ]),
    },
    ...(statement.running ? [{ kind: 'text', text: s.running } as const] : []),
    { kind: 'text', text: s.total(documentFigure(statement.totalKwh)), style: 'strong' },
    ...(statement.cost
      ? ([
          { kind: 'text', text: s.cost(documentNumber(statement.cost.pencePerKwh), documentPounds(statement.cost.pence)), style: 'strong' },
          { kind: 'text', text: s.standingCharge },
        ] as const)
      : ([{ kind: 'text', text: s.noRate }] as const)),
  ];
  return renderLayout(frame(s.title, issued, blocks));
}

/** Each location's first and last reading against its goal. */
function locationsTable(certificate: DrynessCertificate): Block {
  const lc = p.locationColumns;
  const reading = (value: number, at: string) => p.reading(documentNumber(value), documentDate(at));
  return {
    kind: 'table',
    heading: words.certificate.locationsHeading,
    columns: [
      { heading: lc.location, width: 3.2 },
      { heading: lc.material, width: 1.3 },
      { heading: lc.scale, width: 1 },
      { heading: lc.first, width: 1.95 },
      { heading: lc.last, width: 1.95 },
      { heading: lc.goal, width: 0.7, align: 'right' },
    ],
    rows: certificate.locations.map((location) => [
      location.location,
      location.material,
      p.scales[location.scale],
      reading(location.first.value, location.first.at),
      reading(location.last.value, location.last.at),
      documentNumber(location.goal),
    ]),
  };
}

/** The machines switched off and taken away, or a sentence saying there were none. */
function removedBlocks(certificate: DrynessCertificate): Block[] {
  const c = words.certificate;
  if (certificate.removed.length === 0)
    return [
      { kind: 'heading', text: c.removedHeading },
      { kind: 'text', text: c.noneRemoved },
    ];
  const columns = p.removedColumns;
  return [
    {
      kind: 'table',
      heading: c.removedHeading,
      columns: [
        { heading: columns.machine, width: 2.6 },
        { heading: columns.on, width: 1 },
        { heading: columns.off, width: 1 },
      ],
      rows: certificate.removed.map((machine) => [machineName(machine), documentDateTime(machine.on), documentDateTime(machine.off!)]),
    },
  ];
}

/** Every reading of every visit. */
function readingsTable(certificate: DrynessCertificate): Block {
  const rc = p.readingColumns;
  return {
    kind: 'table',
    heading: p.readingsHeading,
    columns: [
      { heading: rc.at, width: 1.75 },
      { heading: rc.location, width: 3.5 },
      { heading: rc.material, width: 1.3 },
      { heading: rc.scale, width: 1 },
      { heading: rc.reading, width: 1, align: 'right' },
      { heading: rc.goal, width: 0.8, align: 'right' },
    ],
    rows: certificate.readings.map((row) => [
      documentDateTime(row.at),
      row.location,
      row.material,
      p.scales[row.scale],
      documentNumber(row.value),
      documentNumber(row.goal),
    ]),
  };
}

export function renderCertificatePdf(certificate: DrynessCertificate, issued: IssuedMark): Promise<Uint8Array> {
  const c = words.certificate;
  const blocks: Block[] = [
    { kind: 'title', text: c.title },
    {
      kind: 'facts',
      rows: [[p.facts.reference, certificate.reference], [p.facts.property, p.postcode(certificate.postcode)], ...issuedFacts(issued)],
    },
    { kind: 'text', text: c.intro, style: 'small' },
    { kind: 'text', text: p.scalesNote, style: 'small' },
    locationsTable(certificate),
    ...removedBlocks(certificate),
    { kind: 'text', text: c.confirmed(documentDate(certificate.confirmedAt), certificate.confirmedBy), style: 'strong' },
    readingsTable(certificate),
  ];
  return renderLayout(frame(c.title, issued, blocks));
}
