// The window event by which the page that heard from the service worker tells the contact form that
// its kept claim was sent (components/offline/ hears the worker; the form listens).
export const KEPT_CLAIM_SENT_EVENT = 'homecare:kept-claim-sent';

export type KeptClaimSent = { enquiryKey: string; reference?: string; urgent: boolean };
