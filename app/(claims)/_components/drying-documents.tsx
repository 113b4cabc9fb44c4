import { dryingDocumentsText as words } from '@/content/drying-documents';
import { claimStatusPath } from '@/lib/claim-paths.mjs';

/**
 * The status page's drying documents: the electricity statement, posted with the customer's unit rate
 * if they type one (a form field, so the rate never lands in an address; it works without script and
 * the browser saves the PDF the answer carries; multipart, as server.mjs takes a claim page's form), and the certificate of dryness once the claim is dried.
 */
export function DryingDocuments({ reference, statement, certificate }: { reference: string; statement: boolean; certificate: boolean }) {
  if (!statement && !certificate) return null;
  const base = claimStatusPath(reference);
  return (
    <div className="space-y-4 rounded-md border border-slate-300 bg-white p-4" data-testid="drying-documents">
      {statement ? (
        <form method="post" encType="multipart/form-data" action={`${base}/electricity.pdf`} className="space-y-2">
          <label htmlFor="drying-unit-rate" className="block font-semibold text-brand-900">
            {words.statementRateLabel}
          </label>
          <p id="drying-unit-rate-hint" className="text-sm text-slate-700">
            {words.statementRateHint}
          </p>
          <input
            id="drying-unit-rate"
            name="rate"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            pattern="\d{1,3}(\.\d{1,2})?"
            aria-describedby="drying-unit-rate-hint"
            className="block w-32 rounded-md border border-slate-400 px-3 py-2"
          />
          <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-900">
            {words.statementButton}
          </button>
        </form>
      ) : null}
      {certificate ? (
        <p>
          <a href={`${base}/certificate.pdf`} download className="font-semibold text-brand-700 underline">
            {words.certificateLink}
          </a>
        </p>
      ) : null}
    </div>
  );
}
