'use client';

import { useActionState } from 'react';
import { staffPage } from '@/content/staff-page';
import {
  SURVEY_FORM_TOKEN_FIELD,
  SURVEY_INTENT_FIELD,
  SURVEY_WINDOW_FIELD,
  type StaffSurveyIntent,
  type StaffSurveyState,
} from '@/lib/survey-booking-state';

const IDLE: StaffSurveyState = { kind: 'idle' };
const words = staffPage.survey;

/**
 * The claim's survey visit on the staff page, and the company's buttons for it: move it to another
 * window, "no access" (the surveyor found nobody in) and cancel. Each is a form of its own that posts
 * without the page's script.
 */
export function StaffSurvey({
  act,
  page,
  booked,
  windows,
  formToken,
}: {
  act: (previous: StaffSurveyState, form: FormData) => Promise<StaffSurveyState>;
  /** The page's own path: the forms' action attribute before hydration. */
  page: string;
  /** The visit booked now, in words; null when none is. */
  booked: string | null;
  /** The windows the visit can move to. */
  windows: { value: string; words: string }[];
  formToken: string;
}) {
  const [state, action, pending] = useActionState(act, IDLE, page);
  const button = (intent: StaffSurveyIntent, label: string, style: string) => (
    <form action={action}>
      <input type="hidden" name={SURVEY_INTENT_FIELD} value={intent} />
      <input type="hidden" name={SURVEY_FORM_TOKEN_FIELD} value={formToken} />
      <button type="submit" className={style} disabled={pending}>
        {label}
      </button>
    </form>
  );
  return (
    <div className="space-y-4" data-testid="staff-survey">
      {state.kind !== 'idle' ? (
        <p role={state.kind === 'done' ? 'status' : 'alert'} className="font-semibold text-slate-800">
          {state.message}
        </p>
      ) : null}
      <p className="text-slate-800">{booked ? words.booked(booked) : words.none}</p>
      {booked && windows.length > 0 ? (
        <form action={action} className="flex flex-wrap items-end gap-3">
          <input type="hidden" name={SURVEY_INTENT_FIELD} value="move" />
          <input type="hidden" name={SURVEY_FORM_TOKEN_FIELD} value={formToken} />
          <div>
            <label htmlFor="staff-survey-window" className="block font-semibold text-slate-800">
              {words.moveTo}
            </label>
            <select
              id="staff-survey-window"
              name={SURVEY_WINDOW_FIELD}
              required
              className="mt-1 block rounded-md border border-slate-500 px-3 py-2.5 text-slate-900 shadow-sm focus:border-brand-700"
            >
              {windows.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.words}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-secondary" disabled={pending}>
            {words.move}
          </button>
        </form>
      ) : null}
      {booked ? (
        <div className="flex flex-wrap gap-3">
          {button('no-access', words.noAccess, 'btn-primary')}
          {button('cancel', words.cancel, 'btn-secondary')}
        </div>
      ) : null}
    </div>
  );
}
