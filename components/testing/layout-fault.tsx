// Renders nothing. The test build resolves this module to its twin, layout-fault.e2e.tsx (next.config.ts):
// the root layout's own failure, outside the page content's error boundary.
export function LayoutFault() {
  return null;
}
