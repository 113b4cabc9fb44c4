// The test build only (`.e2e.tsx`, next.config.ts): the root template, inside the page content's error
// boundary, holds the faults of the page content and of client-side logging. (A template wraps every
// parallel route of its layout; the root layout has one, `children`.)
import type { ReactNode } from 'react';
import { E2eFaults } from '@/components/testing/e2e-faults';

export default function E2eTemplate({ children }: { children: ReactNode }) {
  return (
    <>
      <E2eFaults layer="page" />
      {children}
    </>
  );
}
