'use client';

import dynamic from 'next/dynamic';
import { useActionState, useEffect } from 'react';
import { ClaimStatusView } from '@/app/(claims)/_components/claim-status-view';
import { Field } from '@/components/contact/field';
import { trackPage } from '@/content/claims';
import type { TrackState } from '@/lib/claim-stages';
import { TRACK_PATH } from '@/lib/claim-paths.mjs';
import { isEnquiryReference } from '@/lib/enquiry-reference';

const IDLE: TrackState = { kind: 'idle' };

// The photo picker and its upload come with a claim found, not with the look-up's first load.
const AddPhotos = dynamic(() => import('@/app/(claims)/_components/add-photos').then((module) => module.AddPhotos));
// Likewise the drying record's charts, with a claim that has one.
const DryingSection = dynamic(() => import('@/app/(claims)/_components/drying-section').then((module) => module.DryingSection));

/**
 * The look-up: the reference and the address the enquiry was sent from, posted to the page itself
 * (a server action), so it works before and without the page's script; nothing typed goes in a URL.
 */
export function ClaimLookUp({ lookUp }: { lookUp: (previous: TrackState, form: FormData) => Promise<TrackState> }) {
  // The permalink is the form's action attribute before hydration: the page itself.
  const [state, action, pending] = useActionState(lookUp, IDLE, TRACK_PATH);
  const values = state.kind === 'refused' ? state.values : { reference: '', email: '' };

  // A link from the enquiry's success message carries its reference in the fragment: filled in, unless typed already.
  useEffect(() => {
    const reference = window.location.hash.slice(1).toUpperCase();
    const field = document.getElementById('track-reference');
    if (field instanceof HTMLInputElement && !field.value && isEnquiryReference(reference)) field.value = reference;
  }, []);
  return (
    <div className="space-y-10">
      <form action={action} className="max-w-md space-y-5" data-testid="claim-look-up">
        <Field id="track-reference" label={trackPage.labels.reference} required>
          {(control) => (
            <>
              <p id="track-reference-hint" className="text-sm text-slate-700">
                {trackPage.referenceHint}
              </p>
              <input
                {...control}
                aria-describedby="track-reference-hint"
                name="reference"
                defaultValue={values.reference}
                key={`reference-${values.reference}`}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                maxLength={40}
              />
            </>
          )}
        </Field>
        <Field id="track-email" label={trackPage.labels.email} required>
          {(control) => (
            <input
              {...control}
              name="email"
              type="email"
              defaultValue={values.email}
              key={`email-${values.email}`}
              autoComplete="email"
              required
              maxLength={320}
            />
          )}
        </Field>
        <button type="submit" className="btn-primary" disabled={pending}>
          {trackPage.submit}
        </button>
        <div role="alert" className="font-semibold text-red-700">
          {state.kind === 'refused' ? state.message : null}
        </div>
      </form>
      {state.kind === 'found' ? (
        <div>
          <ClaimStatusView status={state.status} Drying={DryingSection} />
          <AddPhotos key={state.status.reference} reference={state.status.reference} />
        </div>
      ) : null}
    </div>
  );
}
