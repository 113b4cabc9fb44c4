'use client';

import { useId, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { CloseButton } from '@/components/ui/close-button';
import { ExternalLink } from '@/components/ui/external-link';
import { accreditationDialog, type Accreditation } from '@/content/accreditations';

/** The accreditation logos as buttons (2/3/5 columns); each opens a dialog about that scheme. */
export function AccreditationGrid({ accreditations }: { accreditations: readonly Accreditation[] }) {
  const [selected, setSelected] = useState<Accreditation | null>(null);
  const titleId = useId();
  const textId = useId();
  const close = () => setSelected(null);

  return (
    <>
      <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" data-testid="accreditation-grid">
        {accreditations.map((accreditation) => (
          <li key={accreditation.id}>
            <button
              type="button"
              aria-haspopup="dialog"
              onClick={() => setSelected(accreditation)}
              className="flex h-full w-full flex-col items-center gap-3 rounded-lg border border-slate-200 bg-white p-4 text-center shadow-sm transition hover:border-brand-700 hover:shadow-md"
            >
              <img src={accreditation.logo} alt="" width={160} height={80} loading="lazy" className="h-auto w-full max-w-40" />
              <span className="text-sm font-semibold text-brand-900">{accreditation.name}</span>
            </button>
          </li>
        ))}
      </ul>
      <Dialog open={selected !== null} onClose={close} labelledBy={titleId} describedBy={textId} className="modal">
        {selected ? (
          <div className="relative p-6 sm:p-8">
            <CloseButton onClick={close} />
            <h2 id={titleId} className="pr-10 text-2xl font-bold text-brand-900">
              {selected.name}
            </h2>
            <img
              src={selected.logo}
              alt={accreditationDialog.logoAlt(selected.name)}
              width={240}
              height={120}
              className="mx-auto my-6 h-28 w-56"
            />
            <p id={textId} className="text-slate-700">
              {selected.description}
            </p>
            {selected.website ? (
              <ExternalLink href={selected.website} className="btn-primary mt-6">
                {accreditationDialog.websiteLabel}
              </ExternalLink>
            ) : null}
          </div>
        ) : null}
      </Dialog>
    </>
  );
}
