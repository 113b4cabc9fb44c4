'use client';

import { useId, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { CloseButton } from '@/components/ui/close-button';
import { ExternalLink } from '@/components/ui/external-link';
import { business } from '@/content/business';

const BADGE_SRC = '/accreditations/safe-contractor-placeholder.svg';

/** The contractor-safety badge in the footer and its accreditation-notice dialog. */
export function AccreditationBadge() {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const textId = useId();

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        className="rounded-md bg-white p-2 ring-offset-2 ring-offset-brand-950 hover:ring-2 hover:ring-accent-400"
      >
        <img src={BADGE_SRC} alt="Safe Contractor accredited: view accreditation notice" width={160} height={80} loading="lazy" className="h-16 w-32" />
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} labelledBy={titleId} describedBy={textId} className="modal">
        <div className="relative p-6 sm:p-8">
          <CloseButton onClick={() => setOpen(false)} />
          <h2 id={titleId} className="pr-10 text-2xl font-bold text-brand-900">
            Accreditation Notice
          </h2>
          <img src={BADGE_SRC} alt="Safe Contractor badge" width={240} height={120} className="mx-auto my-6 h-28 w-56" />
          <p id={textId} className="text-slate-700">
            {business.legalName} is accredited under the Safe Contractor scheme. The scheme audits contractors&apos; health and safety
            policies, procedures and documentation, and reduces the need for multiple customer questionnaires: one independent
            assessment answers them all.
          </p>
          <ExternalLink href={business.safetyAccreditationUrl} className="btn-primary mt-6">
            Visit Website
          </ExternalLink>
        </div>
      </Dialog>
    </>
  );
}
