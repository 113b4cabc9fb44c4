// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimStatusView } from '@/app/(claims)/_components/claim-status-view';
import { DryingSection } from '@/app/(claims)/_components/drying-section';
import type { ClaimStatus } from '@/lib/claim-stages';
import { dryingSummary, type StoredReading } from '@/lib/drying';

afterEach(() => cleanup());

const reading = (visitAt: string, location: string, value: number, goal: number): StoredReading => ({
  visitAt,
  location,
  material: location === 'Kitchen wall' ? 'plaster' : 'screed',
  scale: location === 'Kitchen wall' ? 'wme' : 'relative',
  value,
  goal,
});
const drying = dryingSummary(
  [
    reading('2026-12-03T10:00:00Z', 'Kitchen wall', 28, 12),
    reading('2026-12-03T10:00:00Z', 'Hall floor', 310, 120),
    reading('2026-12-09T10:00:00Z', 'Kitchen wall', 14, 12),
    reading('2026-12-09T10:00:00Z', 'Hall floor', 110, 120),
  ],
  [{ kind: 'dehumidifier', model: 'Ebac BD150', watts: 700, count: 2, on: '2026-12-03T10:00:00Z', off: null, kwh: null }],
  Date.parse('2026-12-10T12:00:00Z'),
);
const status: ClaimStatus = {
  reference: 'HC-ABC-DEF',
  stage: 'drying',
  waitingOn: 'us',
  nextDate: null,
  timeline: [{ stage: 'received', at: '2026-12-02T09:00:00Z', note: null }],
  insurer: null,
  drying,
};

describe('the drying section of a claim’s status', () => {
  it('says each location’s readings in words, draws them against the goal and tabulates the same figures', () => {
    render(<ClaimStatusView status={status} Drying={DryingSection} />);
    const section = screen.getByRole('region', { name: 'Drying' });
    expect(within(section).getByText('Kitchen wall, plaster: 28 on 3 Dec, 14 on 9 Dec, goal 12')).toBeTruthy();
    expect(within(section).getByText('Hall floor, screed: 310 on 3 Dec, 110 on 9 Dec, goal 120')).toBeTruthy();
    expect(within(section).getByText('Drying for 7 days so far.')).toBeTruthy();
    const chart = within(section).getByRole('img', { name: 'Kitchen wall, plaster: 28 on 3 Dec, 14 on 9 Dec, goal 12' });
    expect(chart.querySelectorAll('circle')).toHaveLength(2);
    expect(chart.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(2);
    const table = within(section).getByRole('table', { name: /Readings: Kitchen wall, plaster/ });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['DateReadingGoal', '3 Dec2812', '9 Dec1412']);
    expect(within(section).getByTestId('drying-machines').textContent).toBe('2 × Ebac BD150 dehumidifiers, since 3 Dec, 10:00');
  });

  it('is not shown before a reading exists', () => {
    render(<ClaimStatusView status={{ ...status, drying: null }} Drying={DryingSection} />);
    expect(screen.queryByRole('region', { name: 'Drying' })).toBeNull();
  });
});
