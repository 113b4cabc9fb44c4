// The test build only (`.e2e.tsx`, next.config.ts): on the home page, the root layout's `e2e` slot holds the
// fault of the root layout itself, outside the page content's error boundary (app/global-error.tsx).
import { E2eFaults } from '@/components/testing/e2e-faults';

export default function E2eLayoutFaults() {
  return <E2eFaults layer="layout" />;
}
