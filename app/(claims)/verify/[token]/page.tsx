import type { Metadata } from 'next';
import { connection } from 'next/server';
import { VerifiedDocumentView } from '@/app/(claims)/_components/verified-document';
import { business } from '@/content/business';
import { dryingDocumentsText as words } from '@/content/drying-documents';
import { verifiedDryingDocument } from '@/server/claims/drying/documents';
import { setPageStatus } from '@/server/edge/page-status.mjs';

export const metadata: Metadata = { title: words.verifyPage.title, robots: { index: false, follow: false } };

/**
 * /verify/<number>.<signature>: one drying document as it was issued, for an insurer to check a
 * statement or certificate against, with whether it has been superseded or withdrawn since. Read-only,
 * nothing of the customer but the postcode the document prints; a token that is malformed or forged,
 * or names no document, is a 404 that says so (rendered here: Next leaves a dynamic page's notFound()
 * body to script).
 */
export default async function VerifyDryingDocumentPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const document = await verifiedDryingDocument((await params).token);
  if (!document) setPageStatus(404);
  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-12" data-testid="verify-drying">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold text-brand-900">{words.verifyPage.title}</h1>
        {document ? <p className="text-slate-700">{words.verifyPage.intro(business.legalName)}</p> : null}
      </div>
      {document ? (
        <VerifiedDocumentView document={document} />
      ) : (
        <p role="status" className="font-semibold text-red-800" data-testid="verify-not-found">
          {words.verifyPage.notFound}
        </p>
      )}
      <p className="text-sm text-slate-700">{words.company(business.legalName, business.registration)}</p>
    </div>
  );
}
