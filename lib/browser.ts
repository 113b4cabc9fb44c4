// Whether code runs in a browser, tested by the browser itself rather than by a global that a server
// runtime may also have: Node has a `navigator` since 21 (without `onLine`) and a `localStorage` since 25
// (undefined, with a warning, unless started with --localstorage-file; a real storage when it is).

/** True in a browser tab (and in a test's simulated DOM), false on the server. */
export function inBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined' && window.document === document;
}

/** Whether the browser says it has no network; never true on the server. */
export function browserIsOffline(): boolean {
  return inBrowser() && window.navigator.onLine === false;
}

/** The page's localStorage, or null on the server and where the browser refuses it (private browsing). */
export function browserLocalStorage(): Storage | null {
  if (!inBrowser()) return null;
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
