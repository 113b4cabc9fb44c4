// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimStatusView } from '@/app/(claims)/_components/claim-status-view';
import { insurerTimesText } from '@/content/claims';
import type { ClaimStatus } from '@/lib/claim-stages';

afterEach(() => cleanup());

const base: ClaimStatus = {
  reference: 'HC-ABC-DEF',
  stage: 'surveyed',
  waitingOn: 'us',
  nextDate: null,
  timeline: [
    { stage: 'received', at: '2026-02-02T10:00:00.000Z', note: null },
    { stage: 'contacted', at: '2026-02-02T13:30:00.000Z', note: null },
    { stage: 'surveyed', at: '2026-02-05T11:00:00.000Z', note: null },
  ],
};

const confirmed: ClaimStatus = {
  ...base,
  insurer: {
    standardsConfirmed: true,
    stamps: [
      { stage: 'received', at: '2026-02-02T10:00:00.000Z', standard: null },
      {
        stage: 'contacted',
        at: '2026-02-02T13:30:00.000Z',
        standard: { term: 'First contact', detail: 'Within 4 working hours', outcome: { kind: 'met' } },
      },
      {
        stage: 'surveyed',
        at: '2026-02-05T11:00:00.000Z',
        standard: { term: 'Survey', detail: 'Within 2 working days', outcome: { kind: 'missed' } },
      },
      {
        stage: 'with-insurer',
        at: null,
        standard: {
          term: 'Report',
          detail: 'Within 2 working days of the survey',
          outcome: { kind: 'due', by: '2026-02-09T17:00:00.000Z' },
        },
      },
    ],
  },
};

const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });

describe('ClaimStatusView for an instruction', () => {
  it('shows each time beside its standard, met, missed or due by a London time, in a captioned table', () => {
    render(<ClaimStatusView status={confirmed} />);
    expect(screen.getByRole('heading', { name: insurerTimesText.heading })).toBeTruthy();
    const table = screen.getByRole('table', { name: insurerTimesText.caption });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Step', 'When', 'Our standard', 'Against it']);
    expect(
      within(row('Instruction received'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2 February 2026 at 10:00', '-', '-']);
    expect(
      within(row('First contact with the policyholder'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2 February 2026 at 13:30', 'Within 4 working hours', 'Met']);
    expect(
      within(row('Survey'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['5 February 2026 at 11:00', 'Within 2 working days', 'Missed']);
    expect(
      within(row('Report and schedule sent'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Not yet', 'Within 2 working days of the survey', 'Due by 9 February 2026 at 17:00']);
    expect(
      screen.getByText('Working hours are Monday to Friday, 08:00 to 17:00, UK time; Scottish bank holidays are not working days.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('standards-being-confirmed')).toBeNull();
  });

  it('while the standards are placeholders, shows the times only and says the standards are being confirmed', () => {
    const placeholder: ClaimStatus = {
      ...base,
      insurer: {
        standardsConfirmed: false,
        stamps: confirmed.insurer!.stamps.map((stamp) => ({ ...stamp, standard: null })),
      },
    };
    render(<ClaimStatusView status={placeholder} />);
    expect(screen.getByTestId('standards-being-confirmed').textContent).toBe(insurerTimesText.beingConfirmed);
    const table = screen.getByRole('table', { name: insurerTimesText.captionUnconfirmed });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Step', 'When']);
    expect(table.textContent).not.toMatch(/Met|Missed|Due by|Within/);
    expect(within(row('Instruction received')).getByRole('cell').textContent).toBe('2 February 2026 at 10:00');
  });
});

describe('ClaimStatusView for a homeowner', () => {
  it('has no insurer part', () => {
    render(<ClaimStatusView status={{ ...base, insurer: null }} />);
    expect(screen.queryByTestId('insurer-times')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText(insurerTimesText.heading)).toBeNull();
  });
});
