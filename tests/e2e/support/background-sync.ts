import type { BrowserContext } from '@playwright/test';

// A Background Sync event as Chromium fires it when the phone's signal returns, dispatched through the
// DevTools protocol from a blank page of the same context: no page of the site needs to be open, as
// when the visitor has closed the tab. Chromium only; the worker must be registered and active.

/** The id of the service worker registration for `origin` in `context`, as DevTools reports it. */
async function registrationIdOf(cdp: Awaited<ReturnType<BrowserContext['newCDPSession']>>, origin: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const registration = registrations.find((entry) => !entry.isDeleted && new URL(entry.scopeURL).origin === origin);
      if (registration) resolve(registration.registrationId);
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no service worker registration for ${origin}`)), 5_000);
  });
  await cdp.send('ServiceWorker.enable');
  try {
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Dispatches a `sync` event with `tag` to the service worker of `siteUrl`'s origin in `context`. */
export async function dispatchBackgroundSync(context: BrowserContext, siteUrl: string, tag = 'send-claims'): Promise<void> {
  const origin = new URL(siteUrl).origin;
  const blank = await context.newPage();
  try {
    const cdp = await context.newCDPSession(blank);
    const registrationId = await registrationIdOf(cdp, origin);
    await cdp.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId, tag, lastChance: false });
    await cdp.detach();
  } finally {
    // The worker runs its sync event on its own; the blank page is not needed for it.
    await blank.close();
  }
}
