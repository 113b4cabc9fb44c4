'use client';

import { useId, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { CloseButton } from '@/components/ui/close-button';
import { ExternalLink } from '@/components/ui/external-link';
import { accreditationNotice as notice } from '@/content/accreditations';
import { business } from '@/content/business';

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
        <img src={notice.badgeSrc} alt={notice.badgeButtonAlt} width={160} height={80} loading="lazy" className="h-16 w-32" />
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} labelledBy={titleId} describedBy={textId} className="modal">
        <div className="relative p-6 sm:p-8">
          <CloseButton onClick={() => setOpen(false)} />
          <h2 id={titleId} className="pr-10 text-2xl font-bold text-brand-900">
            {notice.title}
          </h2>
          <img src={notice.badgeSrc} alt={notice.badgeAlt} width={240} height={120} className="mx-auto my-6 h-28 w-56" />
          <p id={textId} className="text-slate-700">
            {notice.text(business.legalName)}
          </p>
          <ExternalLink href={business.safetyAccreditationUrl} className="btn-primary mt-6">
            {notice.visitLabel}
          </ExternalLink>
        </div>
      </Dialog>
    </>
  );
}
