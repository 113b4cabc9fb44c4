'use client';

import { TrackLink } from '@/components/claims/track-link';
import { CallButton, PhoneLink } from '@/components/ui/call-button';
import { trackLinkText } from '@/content/claims';
import type { FormState } from '@/components/contact/contact-form-state';
import { photoText, referenceText, sendingText, urgentCallText } from '@/content/contact';
import { keptClaimText } from '@/content/offline';

type EnquiryStatusProps = {
  status: FormState['status'];
  /** What the send waiting to be retried says, with its countdown; null when none waits. */
  retryText: string | null;
  /** The emergency line offered with the success message of an urgent enquiry. */
  emergencyPhone?: { display: string; e164: string };
  onSendNow: () => void;
  onCancel: () => void;
};

/**
 * What the contact form says about the enquiry under its Send button: sent (with the reference, the
 * emergency line for an urgent one, photos not kept), a note, a send waiting to be tried again (Send now,
 * Cancel), or why it was not sent. The first three are announced politely, the last as an alert.
 */
export function EnquiryStatus({ status, retryText, emergencyPhone, onSendNow, onCancel }: EnquiryStatusProps) {
  return (
    <>
      <div role="status" className="min-h-0">
        {status.kind === 'success' ? (
          <div className="rounded-md border border-green-700 bg-green-50 p-4 text-green-900">
            <p className="font-semibold">{status.message}</p>
            {status.reference ? (
              <p className="mt-2" data-testid="enquiry-reference">
                {referenceText.before} <strong className="font-mono text-lg tracking-wider">{status.reference}</strong>.{' '}
                {referenceText.after}
              </p>
            ) : null}
            {status.reference ? <TrackLink lead={trackLinkText.sent} reference={status.reference} className="mt-2" /> : null}
            {status.urgent && emergencyPhone ? (
              <div className="mt-3 rounded-md border border-red-700 bg-white p-3 text-red-950" data-testid="urgent-call">
                <p className="font-semibold">{urgentCallText.heading}</p>
                <p className="mt-1">{urgentCallText.text}</p>
                <p className="mt-3">
                  <CallButton phone={emergencyPhone} variant="primary" label={urgentCallText.link} />
                </p>
              </div>
            ) : null}
            {status.photosNotKept ? (
              <p className="mt-2" data-testid="photos-not-kept">
                {photoText.notKept}
              </p>
            ) : null}
          </div>
        ) : null}
        {status.kind === 'kept' ? (
          <div className="rounded-md border border-brand-700 bg-slate-50 p-4 text-slate-900" data-testid="kept-on-phone">
            <p className="font-semibold">{keptClaimText.kept}</p>
            {emergencyPhone ? (
              <p className="mt-2">
                {keptClaimText.urgent} <PhoneLink phone={emergencyPhone} />.
              </p>
            ) : null}
          </div>
        ) : null}
        {status.kind === 'note' ? (
          <p className="rounded-md border border-slate-400 bg-slate-50 p-4 text-slate-900">{status.message}</p>
        ) : null}
        {retryText ? (
          <div className="rounded-md border border-amber-700 bg-amber-50 p-4 text-amber-950" data-testid="send-retry">
            <p className="font-semibold">{retryText}</p>
            <div className="mt-3 flex flex-wrap gap-3">
              <button type="button" onClick={onSendNow} className="btn-primary">
                {sendingText.sendNow}
              </button>
              <button
                type="button"
                onClick={onCancel}
                className="rounded-md border border-slate-500 px-4 py-2 font-semibold text-brand-900 hover:bg-white"
              >
                {sendingText.cancel}
              </button>
            </div>
          </div>
        ) : null}
      </div>
      <div role="alert">
        {status.kind === 'error' ? (
          <p className="rounded-md border border-red-700 bg-red-50 p-4 font-semibold text-red-900">{status.message}</p>
        ) : null}
      </div>
    </>
  );
}
