import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { business } from '@/content/business';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { verifiedDocuments } from '@/server/claims/drying-documents';
import { certificateLines, statementLines, type Line } from '@/server/claims/drying-pdf';

export const metadata: Metadata = { title: words.verifyPage.title, robots: { index: false, follow: false } };

function Lines({ lines, testId }: { lines: readonly Line[]; testId: string }) {
  const [title, ...rest] = lines;
  return (
    <section className="space-y-2" data-testid={testId}>
      <h2 className="text-xl font-bold text-brand-900">{title?.text}</h2>
      {rest.map((line, index) =>
        line.style === 'heading' ? (
          <p key={index} className="pt-2 font-semibold text-brand-900">
            {line.text}
          </p>
        ) : (
          <p key={index} className={line.style === 'small' ? 'text-sm text-slate-700' : 'text-slate-800'}>
            {line.text}
          </p>
        ),
      )}
    </section>
  );
}

/**
 * /verify/<token>: the figures of a claim's drying documents, for an insurer to check a statement or
 * certificate against. Read-only, nothing of the customer but the postcode the documents print; a
 * token that is malformed, forged, revoked or whose claim is gone is a 404.
 */
export default async function VerifyDryingDocumentsPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const documents = await verifiedDocuments((await params).token);
  if (!documents) notFound();
  // The statement's figures without an amount: the customer's rate is theirs and is not kept.
  const statement =
    documents.statement && statementLines({ ...documents.statement, cost: null }).filter((line) => line.text !== words.statement.noRate);
  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-12" data-testid="verify-drying">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold text-brand-900">{words.verifyPage.title}</h1>
        <p className="text-slate-700">{words.verifyPage.intro(business.legalName)}</p>
      </div>
      {statement ? (
        <>
          <Lines lines={statement} testId="verify-statement" />
          <p className="text-sm text-slate-700">{words.verifyPage.rateNote}</p>
        </>
      ) : null}
      {documents.certificate ? (
        <Lines lines={certificateLines(documents.certificate)} testId="verify-certificate" />
      ) : (
        <p className="text-slate-700">{words.verifyPage.noCertificate}</p>
      )}
      <p className="text-sm text-slate-700">{words.company(business.legalName, business.registration)}</p>
    </div>
  );
}
