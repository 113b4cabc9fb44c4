'use client';

import { useActionState } from 'react';
import { surveyBookingText as words } from '@/content/survey-booking';
import {
  SURVEY_FORM_TOKEN_FIELD,
  SURVEY_INTENT_FIELD,
  SURVEY_WINDOW_FIELD,
  type SurveyBookingState,
  type SurveyIntent,
  type WindowChoice,
} from '@/lib/survey-booking-state';

type Props = {
  /** The page's action, bound to the claim: answers with the new state, shown in place (with or without the page's script). */
  act: (previous: SurveyBookingState, form: FormData) => Promise<SurveyBookingState>;
  /** The page's own path: the forms' action attribute before hydration. */
  page: string;
  initial: SurveyBookingState;
  /** The booked visit's invite. */
  calendar: string;
};

/** The windows of each day together, in the order offered. */
function byDay(windows: readonly WindowChoice[]): [string, WindowChoice[]][] {
  const days = new Map<string, WindowChoice[]>();
  for (const choice of windows) days.set(choice.date, [...(days.get(choice.date) ?? []), choice]);
  return [...days.entries()];
}

/** One radio button a window, grouped by day: "Tuesday 1 December" and, under it, "morning, 8am to 1pm". */
function WindowRadios({ windows, legend }: { windows: readonly WindowChoice[]; legend: string }) {
  return (
    <fieldset className="space-y-3">
      <legend className="font-semibold text-slate-900">{legend}</legend>
      {byDay(windows).map(([date, choices]) => {
        const day = choices[0]!.words.split(', ')[0]!;
        return (
          <fieldset key={date} className="rounded-md border border-slate-200 p-3">
            <legend className="px-1 font-semibold text-slate-800">{day}</legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {choices.map((choice) => (
                <label key={choice.value} className="flex min-h-11 items-center gap-2">
                  <input type="radio" name={SURVEY_WINDOW_FIELD} value={choice.value} required className="size-5" />
                  <span>
                    <span className="sr-only">{day}, </span>
                    {choice.words.split(', ').slice(1).join(', ')}
                    {choice.standard ? <span className="block text-sm text-emerald-800">{choice.standard}</span> : null}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
    </fieldset>
  );
}

/** A form of the section: its token and which button it is, then its fields and button. */
function SurveyForm({
  action,
  intent,
  formToken,
  children,
}: {
  action: (form: FormData) => void;
  intent: SurveyIntent;
  formToken: string;
  children: React.ReactNode;
}) {
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name={SURVEY_INTENT_FIELD} value={intent} />
      <input type="hidden" name={SURVEY_FORM_TOKEN_FIELD} value={formToken} />
      {children}
    </form>
  );
}

const Alert = ({ message }: { message?: string }) => (
  <p role="alert" className="font-semibold text-red-700">
    {message ?? null}
  </p>
);

/** "Book your survey": one choice of window and a button; once booked, the visit, its invite, and moving or cancelling it. */
export function SurveyBooking({ act, page, initial, calendar }: Props) {
  const [state, action, pending] = useActionState(act, initial, page);
  if (state.kind === 'closed')
    return (
      <p role="status" className="text-slate-800">
        {state.message}
      </p>
    );
  if (state.kind === 'choose')
    return (
      <SurveyForm action={action} intent="book" formToken={state.formToken}>
        <p role="status" className="font-semibold text-slate-800">
          {state.notice ?? null}
        </p>
        <p className="text-slate-700">{words.intro}</p>
        <WindowRadios windows={state.windows} legend={words.legend} />
        <button type="submit" className="btn-primary" disabled={pending}>
          {words.button}
        </button>
        <Alert message={state.message} />
      </SurveyForm>
    );
  const { change } = state;
  return (
    <div className="space-y-3">
      <p role="status" className="font-semibold text-slate-800" data-testid="survey-booked">
        {state.notice ?? words.booked(state.words)}
      </p>
      <p>
        <a href={calendar} download className="font-semibold text-brand-800 underline">
          {words.addToCalendar}
        </a>
      </p>
      {change === undefined ? (
        <p className="text-slate-700">{words.change}</p>
      ) : change.confirmCancel ? (
        <div className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3">
          <p className="text-slate-900">{words.confirmCancel(state.words)}</p>
          <div className="flex flex-wrap gap-3">
            <SurveyForm action={action} intent="cancel" formToken={change.formToken}>
              <button type="submit" className="btn-primary" disabled={pending}>
                {words.confirmCancelButton}
              </button>
            </SurveyForm>
            <SurveyForm action={action} intent="keep" formToken={change.formToken}>
              <button type="submit" className="btn-secondary" disabled={pending}>
                {words.keepButton}
              </button>
            </SurveyForm>
          </div>
        </div>
      ) : (
        // Drawn anew for each answer (keyed by it), so it is closed after a move as the page without script draws it.
        <details
          key={`${state.words}|${state.notice ?? ''}|${state.message ?? ''}`}
          className="rounded-md border border-slate-200 p-3"
          open={state.message !== undefined}
        >
          <summary className="cursor-pointer font-semibold text-brand-800">{words.changeSummary}</summary>
          <div className="mt-3 space-y-6">
            {change.windows.length > 0 ? (
              <SurveyForm action={action} intent="move" formToken={change.formToken}>
                <WindowRadios windows={change.windows} legend={words.moveLegend} />
                <button type="submit" className="btn-primary" disabled={pending}>
                  {words.moveButton}
                </button>
              </SurveyForm>
            ) : null}
            <SurveyForm action={action} intent="cancel-ask" formToken={change.formToken}>
              <button type="submit" className="btn-secondary" disabled={pending}>
                {words.cancelButton}
              </button>
            </SurveyForm>
          </div>
        </details>
      )}
      <Alert message={state.message} />
    </div>
  );
}
