import type { SurveyWindowName } from '@/lib/survey-windows';

/** A window as the booking form lists it; `standard`: the insurer's survey standard it meets, in words, when it does. */
export type WindowChoice = { value: string; date: string; window: SurveyWindowName; words: string; standard?: string };

/** The status page's survey section, as the page shows it and as each press of its buttons leaves it. */
export type SurveyBookingState =
  /** Windows to choose from; `message` says why the last choice was not booked, `notice` that a visit was cancelled. */
  | { kind: 'choose'; windows: WindowChoice[]; formToken: string; message?: string; notice?: string }
  /**
   * Booked: the window in words. `change`: the windows it can move to, while it can still be changed on
   * the site; `confirmCancel` once "Cancel the visit" was pressed; `message`: why a move was refused.
   */
  | {
      kind: 'booked';
      words: string;
      change?: { windows: WindowChoice[]; formToken: string; confirmCancel?: boolean };
      message?: string;
      notice?: string;
    }
  /** Nothing to book online: why. */
  | { kind: 'closed'; message: string };

export const SURVEY_WINDOW_FIELD = 'window';
export const SURVEY_FORM_TOKEN_FIELD = 'formToken';
/** Which button was pressed: book, move, cancel (asked, then confirmed) or keep. */
export const SURVEY_INTENT_FIELD = 'intent';
export const SURVEY_INTENTS = ['book', 'move', 'cancel-ask', 'cancel', 'keep'] as const;
export type SurveyIntent = (typeof SURVEY_INTENTS)[number];
export const isSurveyIntent = (value: unknown): value is SurveyIntent =>
  typeof value === 'string' && (SURVEY_INTENTS as readonly string[]).includes(value);

/** The staff page's survey section after a press: what was done, or why nothing was. */
export type StaffSurveyState = { kind: 'idle' } | { kind: 'done' | 'refused'; message: string };
/** The company's buttons on the staff page: the visit moved to another window, the surveyor found nobody in, or the visit cancelled. */
export const STAFF_SURVEY_INTENTS = ['move', 'no-access', 'cancel'] as const;
export type StaffSurveyIntent = (typeof STAFF_SURVEY_INTENTS)[number];
export const isStaffSurveyIntent = (value: unknown): value is StaffSurveyIntent =>
  typeof value === 'string' && (STAFF_SURVEY_INTENTS as readonly string[]).includes(value);
