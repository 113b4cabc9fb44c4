// What the site says to a visitor with no signal: the offline page, and the claim kept on the phone.

export const offlinePage = {
  title: 'You’re offline',
  heading: "You're offline: you can still send us your claim",
  description: 'This page is not kept on your phone, but the claim form is: it works with no signal.',
  text: 'Fill in the claim form with your photos now. It is kept on this phone and sent to us as soon as the phone has a signal.',
  formLink: 'Open the claim form',
  call: 'If it is urgent, call us when you can:',
} as const;

/** What the form says when it keeps a claim on the phone (the notices of what became of it: content/kept-claim-notices.ts). */
export const keptClaimText = {
  kept: 'No signal: your claim is saved on this phone and will be sent when it has a signal. You can close this page.',
  urgent: 'If it is urgent (water still coming in, no heating or power, an unsafe building), call us on',
  quota:
    'This phone has no room left to keep your claim with its photos, so it has not been saved for later. Everything you entered is still here: remove a photo or two and press Send message again, or send it when you have a signal.',
} as const;
