// A supervisor's stop or restart (SIGTERM, or SIGINT at a terminal): accept no new connections, let
// requests in flight finish (an enquiry being committed), run the shutdown hooks (the outbox worker
// finishes and records the notification it is sending), flush the logs, exit 0. Bounded by
// SHUTDOWN_GRACE_MS; a job cut off by the bound keeps its lease and is sent after the restart
// (docs/decisions/0005-contact-validation-and-outbox.md).
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.
import { runShutdownHooks } from '../base/shutdown-hooks.mjs';
import { SHUTDOWN_GRACE_MS } from './server-limits.mjs';

/**
 * Resolves once what was written to `stream` is handed to the system, or at once when it cannot be
 * (its reader gone), or after a second at most.
 * @param {NodeJS.WriteStream} stream
 */
const flushed = (stream) =>
  new Promise((resolve) => {
    if (stream.destroyed) return resolve(undefined);
    setTimeout(resolve, 1000).unref();
    stream.write('', () => resolve(undefined));
  });

/**
 * Stops `server` gracefully on the first SIGINT or SIGTERM. Returns whether it is stopping, so a
 * keep-alive client can be told to reconnect (to the restarted process).
 * @param {import('node:http').Server} server
 * @returns {() => boolean}
 */
export function stopGracefullyOnSignals(server) {
  let stopping = false;
  /** @param {string} signal */
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    console.log(`[server] ${signal}: finishing requests and notifications in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s)`);
    const requestsDone = new Promise((resolve) => server.close(() => resolve(true)));
    server.closeIdleConnections();
    const graceOver = new Promise((resolve) => setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS).unref());
    const inTime = await Promise.race([requestsDone, graceOver]);
    const hooksInTime = await runShutdownHooks(Math.max(1000, SHUTDOWN_GRACE_MS - (Date.now() - started)));
    if (!inTime || !hooksInTime) console.error('[server] the grace period ran out; stopping anyway');
    server.closeAllConnections();
    console.log('[server] stopped');
    await Promise.all([process.stdout, process.stderr].map(flushed));
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void stop(signal));
  return () => stopping;
}
