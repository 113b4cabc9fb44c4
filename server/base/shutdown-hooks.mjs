// Work the server must finish before the process exits on SIGTERM/SIGINT (the outbox worker's current
// send, for one). Kept on globalThis so code bundled by Next (instrumentation) and server.mjs, which
// Next does not bundle, share one list. Plain JavaScript so server.mjs runs it with no compile step.
/** @typedef {() => Promise<void> | void} ShutdownHook */
const KEY = Symbol.for('homecare.shutdownHooks');

/** @returns {Map<string, ShutdownHook>} */
function hooks() {
  const shared = /** @type {Record<symbol, Map<string, ShutdownHook> | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (shared[KEY] ??= new Map());
}

/**
 * Registers (or replaces) the hook called `name`; hooks run in the order they were first registered.
 * @param {string} name
 * @param {ShutdownHook} hook
 */
export function onShutdown(name, hook) {
  hooks().set(name, hook);
}

/**
 * Runs every hook in turn, all of them within `timeoutMs` together; a hook that throws is logged and
 * the rest still run. Resolves to whether they all finished in time.
 * @param {number} timeoutMs
 * @param {(line: string) => void} [log]
 * @returns {Promise<boolean>}
 */
export async function runShutdownHooks(timeoutMs, log = console.error) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<boolean>} */
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
