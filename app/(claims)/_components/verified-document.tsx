import type { ReactNode } from 'react';
import { dryingText } from '@/content/drying';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import type { DrynessCertificate, ElectricityStatement } from '@/lib/drying-documents';
import { documentDate, documentDateTime, documentFigure, documentNumber, documentPounds } from '@/server/claims/drying/pdf';
import type { VerifiedDocument } from '@/server/claims/drying/issued-documents';

const v = words.verifyPage;

function Table({ caption, head, rows }: { caption: string; head: readonly string[]; rows: readonly (readonly ReactNode[])[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-left text-sm">
        <caption className="pb-2 text-left font-semibold text-brand-900">{caption}</caption>
        <thead>
          <tr>
            {head.map((cell) => (
              <th key={cell} scope="col" className="border-b border-slate-400 px-2 py-1 font-semibold text-slate-900">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index} className="even:bg-slate-50">
              {row.map((cell, column) => (
                <td key={column} className="border-b border-slate-200 px-2 py-1 text-slate-800">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StatementFigures({ statement }: { statement: ElectricityStatement }) {
  const s = words.statement;
  const c = v.columns;
  return (
    <>
      <p>{words.period(documentDateTime(statement.from), documentDateTime(statement.to))}</p>
      <Table
        caption={s.machinesHeading}
        head={[c.machine, c.rated, c.on, c.off, c.hours, c.kwh, c.source]}
        rows={statement.machines.map((machine) => [
          dryingText.machine(machine.count, machine.kind, machine.model),
          v.watts(machine.watts),
          documentDateTime(machine.on),
          machine.off ? documentDateTime(machine.off) : v.stillRunning,
          documentFigure(machine.hours),
          documentFigure(machine.kwhUsed),
          s.source[machine.source],
        ])}
      />
      {statement.running ? <p>{s.running}</p> : null}
      <p className="font-semibold text-brand-900">{s.total(documentFigure(statement.totalKwh))}</p>
      {statement.cost ? (
        <>
          <p className="font-semibold text-brand-900">
            {s.cost(documentNumber(statement.cost.pencePerKwh), documentPounds(statement.cost.pence))}
          </p>
          <p>{s.standingCharge}</p>
        </>
      ) : (
        <p>{s.noRate}</p>
      )}
    </>
  );
}

function CertificateFigures({ certificate }: { certificate: DrynessCertificate }) {
  const t = words.certificate;
  const c = v.columns;
  return (
    <>
      <Table
        caption={t.locationsHeading}
        head={[c.location, c.scale, c.first, c.last, c.goal]}
        rows={certificate.locations.map((location) => [
          `${location.location}, ${location.material}`,
          words.scales[location.scale],
          v.reading(documentNumber(location.first.value), documentDate(location.first.at)),
          v.reading(documentNumber(location.last.value), documentDate(location.last.at)),
          documentNumber(location.goal),
        ])}
      />
      {certificate.removed.length === 0 ? (
        <p>{t.noneRemoved}</p>
      ) : (
        <Table
          caption={t.removedHeading}
          head={[c.machine, c.on, c.off]}
          rows={certificate.removed.map((machine) => [
            dryingText.machine(machine.count, machine.kind, machine.model),
            documentDateTime(machine.on),
            documentDateTime(machine.off!),
          ])}
        />
      )}
      <p className="font-semibold text-brand-900">{t.confirmed(documentDate(certificate.confirmedAt), certificate.confirmedBy)}</p>
    </>
  );
}

/** The verification page's document: its number, its standing (superseded, withdrawn, deleted) and its figures as printed. */
export function VerifiedDocumentView({ document }: { document: VerifiedDocument }) {
  const title = document.kind === 'statement' ? words.statement.title : words.certificate.title;
  if (document.state === 'deleted')
    return (
      <section className="space-y-3" data-testid="verified-document" aria-labelledby="verified-heading">
        <h2 id="verified-heading" className="text-xl font-bold text-brand-900">
          {v.heading(title, document.number)}
        </h2>
        <p role="status" className="font-semibold text-red-800">
          {v.deleted(document.number, documentDate(document.deletedAt))}
        </p>
      </section>
    );
  const standing = document.withdrawn
    ? (document.withdrawn.reason === 'reading-above-goal' ? v.withdrawn : v.resumed)(documentDate(document.withdrawn.at))
    : document.superseded
      ? v.superseded(document.superseded.by, documentDateTime(document.superseded.at))
      : v.stands;
  const warned = Boolean(document.withdrawn || document.superseded);
  return (
    <section className="space-y-3" data-testid="verified-document" aria-labelledby="verified-heading">
      <h2 id="verified-heading" className="text-xl font-bold text-brand-900">
        {v.heading(title, document.number)}
      </h2>
      <p>{v.issued(documentDateTime(document.issuedAt))}</p>
      <p role="status" className={warned ? 'font-semibold text-red-800' : 'font-semibold text-green-800'} data-testid="document-standing">
        {standing}
      </p>
      <p>{words.reference(document.figures.reference)}</p>
      <p>{words.property(document.figures.postcode)}</p>
      {document.kind === 'statement' ? (
        <StatementFigures statement={document.figures} />
      ) : (
        <CertificateFigures certificate={document.figures} />
      )}
      <p className="break-all text-sm text-slate-700">{v.fingerprint(document.pdfSha256)}</p>
      <p className="text-sm text-slate-700">{v.fingerprintHint}</p>
    </section>
  );
}
