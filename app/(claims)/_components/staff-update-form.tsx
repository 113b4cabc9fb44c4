'use client';

import { useActionState } from 'react';
import { Field } from '@/components/contact/field';
import { staffPage } from '@/content/staff-page';
import { CLAIM_STAGES, CONFIRMED_BY_MAX, NOTE_MAX, WAITING_ON, type ClaimStage, type StaffUpdateState } from '@/lib/claim-stages';

const IDLE: StaffUpdateState = { kind: 'idle' };

/**
 * The company's update of a claim, from the link in its notification: a stage, a date, whose move it
 * is and a note, saved only by the form's POST (opening the link changes nothing: mail scanners open
 * every link), once per form token. Works before and without the page's script.
 */
export function StaffUpdateForm({
  save,
  current,
  page,
  formToken,
  driedAllowed,
}: {
  save: (previous: StaffUpdateState, form: FormData) => Promise<StaffUpdateState>;
  current: ClaimStage;
  /** The page's own path: the form's action attribute before hydration. */
  page: string;
  /** This Save's form token (single use): sent twice, the Save is recorded and told once. */
  formToken: string;
  /** Whether every location of the drying record has met its goal: `dried` is offered only then (or while the claim is there). */
  driedAllowed: boolean;
}) {
  const [state, action, pending] = useActionState(save, IDLE, page);
  const refused = state.kind === 'refused' ? state : null;
  const value = (name: string, fallback = '') => refused?.values[name] ?? fallback;
  const { labels } = staffPage;
  return (
    <form action={action} className="max-w-xl space-y-5" data-testid="staff-update">
      <input type="hidden" name="formToken" value={state.kind === 'saved' ? state.formToken : refused?.values.formToken || formToken} />
      <Field id="update-stage" label={labels.stage} required error={refused?.errors.stage}>
        {(control) => (
          <select {...control} name="stage" defaultValue={value('stage', current)} key={`stage-${value('stage', current)}`} required>
            {CLAIM_STAGES.filter((stage) => stage.name !== 'dried' || driedAllowed || current === 'dried').map((stage) => (
              <option key={stage.name} value={stage.name}>
                {stage.words}
              </option>
            ))}
          </select>
        )}
      </Field>
      {driedAllowed || current === 'dried' ? (
        <Field id="update-confirmed-by" label={labels.confirmedBy} error={refused?.errors.confirmedBy}>
          {(control) => (
            <input
              {...control}
              type="text"
              name="confirmedBy"
              autoComplete="name"
              maxLength={CONFIRMED_BY_MAX}
              defaultValue={value('confirmedBy')}
              key={`confirmed-by-${value('confirmedBy')}`}
            />
          )}
        </Field>
      ) : null}
      <Field id="update-next-date" label={labels.nextDate} error={refused?.errors.nextDate}>
        {(control) => <input {...control} type="date" name="nextDate" defaultValue={value('nextDate')} key={`date-${value('nextDate')}`} />}
      </Field>
      <WaitingOnChoice chosen={value('waitingOn')} />
      <Field id="update-note" label={labels.note} error={refused?.errors.note}>
        {(control) => (
          <textarea {...control} name="note" rows={4} maxLength={NOTE_MAX} defaultValue={value('note')} key={`note-${value('note')}`} />
        )}
      </Field>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="quiet" defaultChecked={value('quiet') === 'on'} />
        {labels.quiet}
      </label>
      <button type="submit" className="btn-primary" disabled={pending}>
        {staffPage.submit}
      </button>
      <div role={refused ? 'alert' : 'status'} className={refused ? 'font-semibold text-red-700' : 'font-semibold text-green-800'}>
        {state.kind === 'idle' ? null : state.message}
      </div>
    </form>
  );
}

/** Whose move it is: nobody's, or one of the parties a claim waits on. */
function WaitingOnChoice({ chosen }: { chosen: string }) {
  return (
    <fieldset>
      <legend className="font-semibold text-brand-900">{staffPage.labels.waitingOn}</legend>
      <div className="mt-2 flex flex-wrap gap-4">
        {[{ name: '', words: staffPage.waitingOnNone }, ...WAITING_ON].map((option) => (
          <label key={option.name || 'none'} className="flex items-center gap-2">
            <input type="radio" name="waitingOn" value={option.name} defaultChecked={chosen === option.name} />
            {option.words}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
