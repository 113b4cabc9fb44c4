import { serviceWorkerScript } from '@/server/base/service-worker-script';

// GET /service-worker.js: the site's service worker (lib/offline/service-worker.ts), as the build made it.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET() {
  const script = await serviceWorkerScript();
  if (script === null) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  // Checked on every page load (the worker's own update check), so a new build reaches phones at once.
  return new Response(script, { headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' } });
}
