import { serviceWorkerScript } from '@/server/base/service-worker-script';

// The test build only (the `.e2e.ts` extension): the next version of the site's service worker, as a
// new build would make it (another version, so another cache), for the browser test of an update that
// finds a claim kept by the version before. Registered with scope `/`, which its header allows.
export const dynamic = 'force-dynamic';

export async function GET() {
  const script = await serviceWorkerScript();
  if (script === null) return new Response('Not found', { status: 404 });
  const next = script.replace(/("version":")([^"]+)"/, '$1$2-next"');
  return new Response(next, {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'Service-Worker-Allowed': '/' },
  });
}
