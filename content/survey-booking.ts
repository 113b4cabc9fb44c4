// The words of booking a survey on the status page (server/claims/survey-booking.ts), in a module of
// their own so pages that do not show them do not carry them in their JavaScript.
import { business } from '@/content/business';

export const surveyBookingText = {
  heading: 'Book your survey',
  intro:
    'Choose when our surveyor can visit the property. Each time is a window: the surveyor arrives within it. You can book from the next working day.',
  legend: 'Times you can book',
  /** Beside a window that meets the instruction's survey standard (its detail: "Within 2 working days"). */
  meetsStandard: (detail: string) => `meets the survey standard: ${detail.charAt(0).toLowerCase()}${detail.slice(1)}`,
  button: 'Book this visit',
  booked: (words: string) => `Your survey is booked: ${words}.`,
  bookedHeading: 'Your survey',
  bookedBody: (words: string) => `Our surveyor will visit on ${words}.`,
  addToCalendar: 'Add to calendar (.ics)',
  change: `To move or cancel the visit now, call us on ${business.phone.display}.`,
  changeSummary: 'Move or cancel the visit',
  moveLegend: 'Move the visit to',
  moveButton: 'Move the visit to this time',
  moved: (words: string) => `Your survey is moved: ${words}.`,
  cancelButton: 'Cancel the visit',
  confirmCancel: (words: string) => `Cancel the visit on ${words}? Its place goes back for someone else to book.`,
  confirmCancelButton: 'Yes, cancel the visit',
  keepButton: 'Keep the visit',
  cancelled: (words: string) => `Your survey visit on ${words} is cancelled. Choose another time below, or call us.`,
  movesUsed: `This visit has been moved as often as the site allows: to move it again, call us on ${business.phone.display}.`,
  choose: 'Choose a time for the visit.',
  refused: {
    full: 'Sorry: someone has just taken the last place at that time. Please choose another of the times below.',
    'not-offered': 'That time can no longer be booked. Please choose one of the times below.',
    blocked: 'That time is no longer available. Please choose one of the times below.',
    'already-booked': 'Your survey is already booked.',
    stage: `The survey for this claim is arranged by phone now: call us on ${business.phone.display}.`,
  },
  reload: 'This form has expired. Please reload the page and choose again.',
  none: `There are no times left to book online. Please call us on ${business.phone.display}.`,
} as const;
