'use client';

import { useState, type FormEvent } from 'react';
import { parseDecimal, readingFieldName } from '@/lib/drying-form';

type WetRow = { row: number; goal: number };

/** The reading rows whose typed reading is above its typed goal. */
function wetRowsOf(form: HTMLFormElement, rows: number): WetRow[] {
  const data = new FormData(form);
  const number = (name: string) => parseDecimal(String(data.get(name) ?? ''));
  return Array.from({ length: rows }, (_, row) => row).flatMap((row) => {
    const value = number(readingFieldName(row, 'value'));
    const goal = number(readingFieldName(row, 'goal'));
    return typeof value === 'number' && typeof goal === 'number' && value > goal ? [{ row, goal }] : [];
  });
}

/**
 * On a claim at `dried`, the readings typed above their goals, checked as the visit form is typed in:
 * `checkWet` goes on the form's input event, `wetGoal(row)` is the goal a row's reading is above.
 */
export function useWetReadings(dried: boolean, readingRows: number) {
  const [wetRows, setWetRows] = useState<readonly WetRow[]>([]);
  const checkWet = (event: FormEvent<HTMLFormElement>) => {
    if (!dried) return;
    const rows = wetRowsOf(event.currentTarget, readingRows);
    if (JSON.stringify(rows) !== JSON.stringify(wetRows)) setWetRows(rows);
  };
  const wetGoal = (row: number) => wetRows.find((wet) => wet.row === row)?.goal;
  return { checkWet, wetGoal, anyWet: dried && wetRows.length > 0 };
}
