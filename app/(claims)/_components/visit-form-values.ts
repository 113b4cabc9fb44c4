import type { StaffVisitState } from '@/lib/drying-form';

/** What a visit form's fields show: after a refusal what was entered and why not, otherwise what the record knows. */
export type EnteredValues = {
  value: (name: string, fallback?: string) => string;
  error: (name: string) => string | undefined;
};

export function enteredValuesOf(refused: Extract<StaffVisitState, { kind: 'refused' }> | null): EnteredValues {
  return {
    value: (name, fallback = '') => refused?.values[name] ?? fallback,
    error: (name) => refused?.errors[name],
  };
}
