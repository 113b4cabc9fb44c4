// Work the server must finish before the process exits on SIGTERM/SIGINT (the outbox worker's current
// send, for one). Kept on globalThis so code bundled by Next (instrumentation) and server.mjs, which
// Next does not bundle, share one list. Plain JavaScript so server.mjs runs it with no compile step.
const KEY = Symbol.for('homecare.shutdownHooks');

function hooks() {
  globalThis[KEY] ??= new Map();
  return globalThis[KEY];
}

/** Registers (or replaces) the hook called `name`; hooks run in the order they were first registered. */
export function onShutdown(name, hook) {
  hooks().set(name, hook);
}

/**
 * Runs every hook in turn, all of them within `timeoutMs` together; a hook that throws is logged and
 * the rest still run. Resolves to whether they all finished in time.
 */
export async function runShutdownHooks(timeoutMs, log = console.error) {
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const all = (async () => {
    for (const [name, hook] of hooks()) {
      try {
        await hook();
      } catch (error) {
        log(`[shutdown] ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return true;
  })();
  const finished = await Promise.race([all, deadline]);
  clearTimeout(timer);
  return finished;
}
