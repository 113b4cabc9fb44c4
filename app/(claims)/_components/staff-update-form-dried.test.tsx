// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StaffUpdateForm } from '@/app/(claims)/_components/staff-update-form';
import type { StaffUpdateState } from '@/lib/claim-stages';

afterEach(() => cleanup());

const save = async (previous: StaffUpdateState) => previous;
const stagesOffered = (driedAllowed: boolean, current: 'drying' | 'dried' = 'drying') => {
  render(
    <StaffUpdateForm
      save={save}
      current={current}
      page="/claims/HC-ABC-DEF/update"
      formToken={'x'.repeat(24)}
      driedAllowed={driedAllowed}
    />,
  );
  const offered = within(screen.getByRole('combobox', { name: /Stage/ }))
    .getAllByRole('option')
    .map((option) => option.textContent);
  cleanup();
  return offered;
};

describe('the staff page’s stages', () => {
  it('offers “Dried: ready for repairs” after “Drying out” only when every location has met its goal', () => {
    expect(stagesOffered(false)).not.toContain('Dried: ready for repairs');
    const offered = stagesOffered(true);
    expect(offered.indexOf('Dried: ready for repairs')).toBe(offered.indexOf('Drying out') + 1);
    expect(stagesOffered(false, 'dried')).toContain('Dried: ready for repairs');
  });
});
