'use client';

import { useActionState } from 'react';
import { staffPage } from '@/content/staff-page';
import { SURVEY_FORM_TOKEN_FIELD, SURVEY_INTENT_FIELD, type StaffSurveyIntent, type StaffSurveyState } from '@/lib/survey-booking-state';

const IDLE: StaffSurveyState = { kind: 'idle' };
const words = staffPage.survey;

/**
 * The claim's survey visit on the staff page, and the company's two buttons for it: "no access" (the
 * surveyor found nobody in) and cancel. Each is a form of its own that posts without the page's script.
 */
export function StaffSurvey({
  act,
  page,
  booked,
  formToken,
}: {
  act: (previous: StaffSurveyState, form: FormData) => Promise<StaffSurveyState>;
  /** The page's own path: the forms' action attribute before hydration. */
  page: string;
  /** The visit booked now, in words; null when none is. */
  booked: string | null;
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
      {booked ? (
        <div className="flex flex-wrap gap-3">
          {button('no-access', words.noAccess, 'btn-primary')}
          {button('cancel', words.cancel, 'btn-secondary')}
        </div>
      ) : null}
    </div>
  );
}
