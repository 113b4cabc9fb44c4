import type { ComponentType } from 'react';
import type { DryingSectionProps } from '@/app/(claims)/_components/drying-section';
import { insurerTimesText, statusText } from '@/content/claims';
import { stageWords, waitingOnWords, type ClaimStatus } from '@/lib/claim-stages';
import type { InsurerStamp, InsurerTimes } from '@/lib/insurer-times';

// Made on first use, not when the look-up's script loads: loading a time zone's rules is a long task on a slow phone.
let formats: { dateTime: Intl.DateTimeFormat; date: Intl.DateTimeFormat } | undefined;
const ukFormats = () =>
  (formats ??= {
    dateTime: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/London' }),
    date: new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }),
  });

/**
 * A claim's status: the stage, whose move it is, the next date, the stages reached so far, and with
 * `Drying` its drying record once a reading exists. A server page passes the drying section itself;
 * the look-up, rendered in the browser, one loaded only with a claim that has one.
 */
export function ClaimStatusView({
  status,
  headingLevel = 2,
  Drying,
}: {
  status: ClaimStatus;
  headingLevel?: 1 | 2;
  Drying?: ComponentType<DryingSectionProps>;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const SubHeading = headingLevel === 1 ? 'h2' : 'h3';
  return (
    <section aria-labelledby="claim-status-heading" className="space-y-6" data-testid="claim-status">
      <Heading id="claim-status-heading" className="text-2xl font-bold text-brand-900">
        {statusText.heading(status.reference)}
      </Heading>
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-md border border-slate-300 bg-white p-4">
          <dt className="text-sm font-semibold text-slate-700">{statusText.stage}</dt>
          <dd className="text-xl font-bold text-brand-900" data-testid="claim-stage">
            {stageWords(status.stage)}
          </dd>
        </div>
        <div className="rounded-md border border-slate-300 bg-white p-4">
          <dt className="text-sm font-semibold text-slate-700">{statusText.waitingOn}</dt>
          <dd className="text-xl font-bold text-brand-900">{status.waitingOn ? waitingOnWords(status.waitingOn) : '-'}</dd>
        </div>
        <div className="rounded-md border border-slate-300 bg-white p-4">
          <dt className="text-sm font-semibold text-slate-700">{statusText.nextDate}</dt>
          <dd className="text-xl font-bold text-brand-900">
            {status.nextDate ? ukFormats().date.format(new Date(`${status.nextDate}T00:00:00Z`)) : statusText.noNextDate}
          </dd>
        </div>
      </dl>
      <SubHeading className="text-lg font-bold text-brand-900">{statusText.timeline}</SubHeading>
      <ol className="space-y-3 border-l-2 border-brand-700 pl-4" data-testid="claim-timeline">
        {[...status.timeline].reverse().map((step, index) => (
          <li key={`${step.at}-${index}`}>
            <p className="font-semibold text-brand-900">{stageWords(step.stage)}</p>
            <p className="text-sm text-slate-700">
              <time dateTime={step.at}>{ukFormats().dateTime.format(new Date(step.at))}</time>
            </p>
            {step.note ? <p className="mt-1 whitespace-pre-line text-slate-800">{step.note}</p> : null}
          </li>
        ))}
      </ol>
      {status.drying && Drying ? (
        <Drying drying={status.drying} Heading={SubHeading} LocationHeading={SubHeading === 'h2' ? 'h3' : 'h4'} />
      ) : null}
      {status.insurer ? <InsurerTimesTable times={status.insurer} Heading={SubHeading} /> : null}
      <p className="text-slate-700">{statusText.callUs}</p>
    </section>
  );
}

const ukTime = (iso: string) => <time dateTime={iso}>{ukFormats().dateTime.format(new Date(iso))}</time>;

function outcomeWords(outcome: NonNullable<InsurerStamp['standard']>['outcome']) {
  switch (outcome.kind) {
    case 'met':
      return insurerTimesText.met;
    case 'missed':
      return insurerTimesText.missed;
    case 'due':
      return (
        <>
          {insurerTimesText.dueBy} {ukTime(outcome.by)}
        </>
      );
    case 'not-measured':
      return insurerTimesText.notMeasured;
  }
}

/** An instruction's stamped times; beside each, once the company has confirmed them, its standard and whether it was met. */
function InsurerTimesTable({ times, Heading }: { times: InsurerTimes; Heading: 'h2' | 'h3' }) {
  const text = insurerTimesText;
  const confirmed = times.standardsConfirmed;
  const cell = 'border-t border-slate-200 px-3 py-2 align-top';
  return (
    <section aria-labelledby="insurer-times-heading" className="space-y-3" data-testid="insurer-times">
      <Heading id="insurer-times-heading" className="text-lg font-bold text-brand-900">
        {text.heading}
      </Heading>
      {confirmed ? null : (
        <p className="text-slate-700" data-testid="standards-being-confirmed">
          {text.beingConfirmed}
        </p>
      )}
      <table className="w-full border-collapse rounded-md border border-slate-300 bg-white text-left text-sm">
        <caption className="px-3 py-2 text-left font-semibold text-slate-700">{confirmed ? text.caption : text.captionUnconfirmed}</caption>
        <thead>
          <tr>
            <th scope="col" className="px-3 py-2">
              {text.columns.step}
            </th>
            <th scope="col" className="px-3 py-2">
              {text.columns.at}
            </th>
            {confirmed ? (
              <>
                <th scope="col" className="px-3 py-2">
                  {text.columns.standard}
                </th>
                <th scope="col" className="px-3 py-2">
                  {text.columns.outcome}
                </th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {times.stamps.map((stamp) => (
            <tr key={stamp.stage} data-testid={`insurer-time-${stamp.stage}`}>
              <th scope="row" className={`${cell} font-semibold text-brand-900`}>
                {text.steps[stamp.stage]}
              </th>
              <td className={cell}>{stamp.at ? ukTime(stamp.at) : text.notYet}</td>
              {confirmed ? (
                <>
                  <td className={cell}>{stamp.standard ? stamp.standard.detail : text.noStandard}</td>
                  <td className={`${cell} font-semibold`} data-testid="insurer-outcome">
                    {stamp.standard ? outcomeWords(stamp.standard.outcome) : text.noStandard}
                  </td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {confirmed ? <p className="text-sm text-slate-700">{text.workingTime}</p> : null}
    </section>
  );
}
