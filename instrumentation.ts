import type { Instrumentation } from 'next';

/** Checks the server's settings and starts the background work: e-mails, webhooks, digest, retention (Node server only, never at build time). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  try {
    // Every setting, server and public, in one check (server/base/config.mjs).
    const { config } = await import('@/server/base/config.mjs');
    config();
  } catch (misconfiguration) {
    // A bad setting stops the server with the variable named, before the first request, rather than
    // leaving pages and the contact form answering visitors with errors.
    console.error(misconfiguration instanceof Error ? misconfiguration.message : misconfiguration);
    process.exit(1);
  }
  try {
    // Personal data is owner-only whatever umask the server was started with: places left wider (an
    // older version, a copy made by hand) are tightened once, and restore learns the site is running.
    const { securePrivatePlacesAtStart } = await import('@/server/base/private-files');
    await securePrivatePlacesAtStart();
  } catch (error) {
    console.error('[privacy] could not check the modes of the data folder:', error instanceof Error ? error.message : error);
  }
  try {
    // Uploads a process that died left half-read (raw phone photos, GPS tags and all).
    const [{ clearIncomingUploads }, { incomingDirOf, photosRoot }] = await Promise.all([
      import('@/server/intake/multipart-enquiry'),
      import('@/server/ledger/photo-store'),
    ]);
    await clearIncomingUploads(incomingDirOf(photosRoot()));
  } catch (error) {
    console.error('[uploads] could not clear the folder of incoming uploads:', error instanceof Error ? error.message : error);
  }
  try {
    const { startBackgroundWork } = await import('@/server/background');
    await startBackgroundWork();
  } catch {
    // Logged by the starter, which keeps trying with growing delays; enquiries are stored meanwhile.
  }
}

/**
 * Server-side failures (rendering, route handlers, server actions) are recorded like the browser's
 * entries, with source 'backend', in the site's own error log (SQLite + one stdout line): grouped by
 * route and message, and new rows budgeted, since anonymous requests reach them (server-entries.ts).
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  // The store needs Node (libSQL, the filesystem); nothing of this site runs on the edge runtime.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  try {
    const { recordServerError } = await import('@/server/error-log/server-entries');
    await recordServerError(error, request, context);
  } catch (failure) {
    // Logging must never take the server down or hide the original error.
    console.error('[instrumentation] Could not record a server error:', failure);
  }
};
