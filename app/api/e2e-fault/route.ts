// A server-side failure for the browser tests of onRequestError (instrumentation.ts). Only the test
// build (NEXT_PUBLIC_E2E_FAULTS=1, always inlined by next.config.ts) throws; every other build answers 404.
export function GET() {
  if (process.env.NEXT_PUBLIC_E2E_FAULTS === '1') throw new Error('E2E server fault');
  return Response.json({ success: false, message: 'Not found' }, { status: 404 });
}
