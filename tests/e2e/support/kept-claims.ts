import { expect, type Page } from './test';

// The service worker's claims kept on the phone (lib/offline/service-worker.ts), as a test asks after
// them from a page it controls: the page asks for a round of sending ({ type: 'visit' }), and the worker
// answers every open page with how many claims still wait ({ type: 'waiting', left }) once the round is
// over. Rounds run one at a time, so `left: 0` means the worker keeps nothing: it has nothing left to send.

/** The script (a function body) that asks the worker for a round and records its answer in `window.__keptLeft`. */
export const ASK_WORKER_FOR_A_ROUND = `window.__keptLeft = undefined;
  navigator.serviceWorker.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'waiting') window.__keptLeft = event.data.left;
  });
  navigator.serviceWorker.controller.postMessage({ type: 'visit' });
  return true;`;

/** The script (a function body) that says whether the worker has answered that nothing waits. */
export const WORKER_KEEPS_NOTHING = 'return window.__keptLeft === 0;';

/** Resolves once the worker in charge of `page` has finished a round of sending with no claim left to send. */
export async function workerKeepsNothing(page: Page): Promise<void> {
  await page.evaluate(`(() => { ${ASK_WORKER_FOR_A_ROUND} })()`);
  await expect
    .poll(() => page.evaluate<boolean>(`(() => { ${WORKER_KEEPS_NOTHING} })()`), {
      message: 'the service worker keeps no claim',
      timeout: 15_000,
    })
    .toBe(true);
}
