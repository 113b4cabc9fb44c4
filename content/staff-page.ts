// The words of the company's staff page for a claim (by its signed link): apart from the customer's
// pages' words, so the pages a customer opens do not ship them.
export const staffPage = {
  title: 'Update the repair’s status',
  forClaim: (reference: string) => `For claim ${reference}. Saving tells the customer by email, unless you tick the box below.`,
  labels: {
    stage: 'Stage',
    nextDate: 'Next date (optional)',
    waitingOn: 'Whose move it is',
    note: 'Note for the customer (optional)',
    quiet: 'Don’t tell the customer (an internal correction)',
    confirmedBy: 'Drying confirmed by (your name, for “Dried” only)',
  },
  waitingOnNone: 'Not said',
  submit: 'Save',
  saved: (stage: string) => `Saved: the claim is now at “${stage}”.`,
  /** The company's CRM sent a change timed after this Save (its clock runs a little ahead of the site's). */
  savedBehind: (stage: string, shown: string) =>
    `Saved “${stage}” in the claim’s history, but the claim stays at “${shown}”: the CRM sent a change timed after this one. The customer was not told.`,
  invalid: 'Please correct the highlighted fields.',
  badStage: 'Choose a stage from the list',
  badDate: 'Enter the date as a day in the calendar, or leave it empty',
  noteTooLong: 'Keep the note under 1,000 characters',
  /** `dried` before every location of the drying record has met its goal. */
  notDried: (location: string) => `Not dried yet: ${location} is above its drying goal`,
  noDryingReadings: 'Not dried yet: no drying readings are recorded for this claim',
  /** `dried` is saved with the name of who confirmed it: the certificate of dryness prints it. */
  confirmedByMissing: 'Enter the name of who confirmed drying: the certificate of dryness prints it',
  confirmedByTooLong: 'Keep the name under 80 characters',
  /**
   * A form sent again with a form token already used (the Back button, then another change): nothing
   * of this send is saved. `time`: the first send's, on the London clock; `first`: what it saved.
   */
  alreadySent: (time: string, first: string) =>
    `This form was already sent at ${time} and ${first}. This second send changed nothing: reload the page to record another change.`,
  /** What a stage Save already sent saved the first time. */
  firstStage: (stage: string) => `saved “${stage}”`,
  /** A Save without the form token the page is served with (a page from before it had one). */
  reload: 'This page is out of date: reload it, then save again.',
  /** The claim's survey visit, and the company's buttons for it. */
  survey: {
    heading: 'Survey visit',
    booked: (words: string) => `Booked: ${words}.`,
    none: 'No survey visit is booked for this claim.',
    moveTo: 'Move the visit to',
    move: 'Move the visit',
    moved: (words: string) => `Moved: the visit is now on ${words}. The customer is told by e-mail, with the moved invite.`,
    notFree: 'That time is no longer free: choose another.',
    chooseWindow: 'Choose the time to move the visit to.',
    noAccess: 'Record no access (nobody was in)',
    cancel: 'Cancel the visit',
    noAccessDone: (words: string) => `Recorded: nobody was in on ${words}. The customer is asked by e-mail to book again.`,
    cancelled: (words: string) => `Cancelled: the visit on ${words}. The customer is told by e-mail and can book again.`,
    nothingBooked: 'No visit is booked now: nothing was changed.',
    reload: 'This page is out of date: reload it, then try again.',
    dayHeading: 'Survey visits today and on the next working day',
    dayNone: 'None booked.',
    noAddress: 'No address given',
  },
} as const;
