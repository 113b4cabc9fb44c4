// What a page does with what became of the claims kept on the phone (loaded after the page's load
// event by kept-claim-notices.tsx, so no page's first load carries it): a sent claim's draft is let go
// and the contact form, if open, is told; a refused claim's words go back into the form's draft (its
// photos were not kept), so the form opens with them filled in; a claim deleted unsent is only told of.
import { clearDraft, loadDraftFields, saveDraftFields, saveDraftPhoto } from '@/lib/contact-draft';
import { ENQUIRY_FIELDS, type EnquiryFields } from '@/lib/contact-fields';
import { KEPT_CLAIM_SENT_EVENT, type KeptClaimSent } from '@/lib/offline/kept-claim-events';
import { startKeptClaims } from '@/lib/offline/kept-claims-client';
import type { ClaimOutcome, KeptClaim } from '@/lib/offline/protocol';

async function backIntoTheForm(claim: KeptClaim) {
  await clearDraft();
  const fields = Object.fromEntries(ENQUIRY_FIELDS.map((field) => [field, claim.fields[field] ?? ''])) as EnquiryFields;
  const savedAt = Date.now();
  saveDraftFields({ savedAt, fields, claimOpen: true, enquiryKey: claim.enquiryKey });
  for (const [index, photo] of claim.photos.entries()) {
    await saveDraftPhoto({ id: savedAt + index, name: photo.name, type: photo.type, blob: photo.blob, savedAt });
  }
}

async function apply(outcome: ClaimOutcome) {
  if (outcome.kind === 'refused') return outcome.wordsDropped ? undefined : backIntoTheForm(outcome.claim);
  if (outcome.kind === 'expired') return;
  if (loadDraftFields()?.enquiryKey === outcome.enquiryKey) await clearDraft();
  const sent: KeptClaimSent = { enquiryKey: outcome.enquiryKey, reference: outcome.reference, urgent: outcome.urgent };
  window.dispatchEvent(new CustomEvent(KEPT_CLAIM_SENT_EVENT, { detail: sent }));
}

/** Starts the service worker's side of this page; `show` gets each outcome once it has been applied. */
export function followKeptClaims(show: (outcomes: ClaimOutcome[]) => void): () => void {
  const applied = new Set<string>();
  const kept = startKeptClaims((outcomes) => {
    const fresh = outcomes.filter((outcome) => !applied.has(outcome.enquiryKey));
    if (fresh.length === 0) return;
    for (const outcome of fresh) applied.add(outcome.enquiryKey);
    void Promise.all(fresh.map((outcome) => apply(outcome).catch(() => undefined))).then(() => {
      show(fresh);
      kept.seen(fresh.map((outcome) => outcome.enquiryKey));
    });
  });
  return kept.stop;
}
