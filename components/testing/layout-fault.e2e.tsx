// The test build's layout-fault.tsx (`.e2e.tsx` modules come first there, next.config.ts): in the root
// layout, outside the page content's error boundary, `?e2e-fault=layout-render` fails the layout itself
// (app/global-error.tsx).
import { E2eFaults } from '@/components/testing/e2e-faults';

export function LayoutFault() {
  return <E2eFaults layer="layout" />;
}
