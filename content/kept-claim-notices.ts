// What every page says of a claim kept on this phone once the service worker is done with it: a module
// of its own, since every page loads it after its load event and none needs the form's words.
export const keptClaimNoticeText = {
  sent: (reference: string) => `Your claim was sent: reference ${reference}`,
  sentNoReference: 'Your claim was sent.',
  refused: (message: string) => `The claim kept on this phone could not be sent: ${message}`,
  refusedNext: 'It is back in the claim form for you to check and send again. Your photos were not kept: add them again.',
  refusedForgotten: 'What it said was kept on this phone for 24 hours only: please fill in the claim form again.',
  expired: (keptOn: string) =>
    `A claim kept on this phone on ${keptOn} could not be sent within 30 days, so it has been deleted. Please send it again.`,
  formLink: 'Open the claim form',
  dismiss: 'Dismiss',
} as const;
