// A server-side failure for the browser tests of onRequestError (instrumentation.ts). The `.e2e.ts`
// extension makes it a route only in the test build (NEXT_PUBLIC_E2E_FAULTS=1 adds it to
// pageExtensions in next.config.ts); every other build has no /api/e2e-fault at all.
export function GET(): never {
  throw new Error('E2E server fault');
}
