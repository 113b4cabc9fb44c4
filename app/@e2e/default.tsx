// The root layout's `e2e` slot: empty. Only the test build has a page for it (page.e2e.tsx, next.config.ts).
export default function NoFaults() {
  return null;
}
