// A page's own HTTP status. The app router gives a page no way to set one: `notFound()` does, but a
// dynamic page's not-found answer is not rendered on the server (the document is empty until script
// runs), and a claim's dead link must read without JavaScript. So server.mjs runs each document
// request in a store, a page says the status it means (`setPageStatus(404)`) while it renders,
// and the response is written with it. Plain JavaScript (typed by JSDoc) so server.mjs runs it with
// no compile step.
import { AsyncLocalStorage } from 'node:async_hooks';

// On globalThis: the pages' bundled copy of this module and server.mjs's must share one store.
const STORE = Symbol.for('homecare.page-status');

/** @returns {AsyncLocalStorage<{ status?: number }>} */
const storage = () => {
  const holder = /** @type {{ [STORE]?: AsyncLocalStorage<{ status?: number }> }} */ (globalThis);
  return (holder[STORE] ??= new AsyncLocalStorage());
};

/**
 * Said by a page while it renders: its document is answered with `status` instead of 200. Nothing
 * outside a document request (a client-side navigation's payload, a server action's answer, which
 * Next reads as failed unless 200).
 * @param {number} status
 */
export function setPageStatus(status) {
  const store = storage().getStore();
  if (store) store.status = status;
}

/**
 * Runs `handle` for a request, a GET or HEAD of a document letting its page say its status.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {() => unknown} handle
 */
export function withPageStatus(request, response, handle) {
  const document =
    (request.method === 'GET' || request.method === 'HEAD') &&
    request.headers.rsc === undefined &&
    request.headers['next-action'] === undefined;
  if (!document) return handle();
  /** @type {{ status?: number }} */
  const store = {};
  const writeHead = response.writeHead;
  // Node writes every head through writeHead, explicitly or on the first write.
  response.writeHead = /** @type {typeof writeHead} */ (
    function (/** @type {number} */ statusCode, /** @type {any[]} */ ...rest) {
      return writeHead.call(this, statusCode === 200 && store.status ? store.status : statusCode, ...rest);
    }
  );
  return storage().run(store, handle);
}
