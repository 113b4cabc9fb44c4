// What `@/components/testing/e2e-faults` resolves to outside the test build (next.config.ts), so no
// production bundle or manifest carries the test-only faults.
export function E2eFaults(_props: { layer: 'layout' | 'page' }) {
  return null;
}
