'use client';

import { Suspense, useEffect } from 'react';
import { useSearchParams } from 'next/navigation';
import { apiRequest } from '@/lib/api-client';
import { crmBaseUrl } from '@/lib/public-env';

/**
 * Faults the browser tests trigger with `?e2e-fault=render|request|burst|rejection` (inside the page
 * content's error boundary: app/template.e2e.tsx) and `?e2e-fault=layout-render` (in the root layout,
 * outside it: components/testing/layout-fault.e2e.tsx). Only those `.e2e.tsx` files import it, and
 * only the test build (NEXT_PUBLIC_E2E_FAULTS=1, tests/e2e/test-env.ts) uses them (next.config.ts): no
 * other build carries it.
 */
export function E2eFaults({ layer }: { layer: 'page' | 'layout' }) {
  // useSearchParams needs a Suspense boundary on a prerendered page; the faults render in the browser only.
  return (
    <Suspense fallback={null}>
      <ArmedFaults layer={layer} />
    </Suspense>
  );
}

declare global {
  interface Window {
    /** A test sets this to let the page render again after a render fault (the cause went away). */
    __e2eRenderFaultCleared?: boolean;
  }
}

function ArmedFaults({ layer }: { layer: 'page' | 'layout' }) {
  // The router's search params, not window.location: during a client navigation the new page renders
  // before the address bar changes, and a stale fault would break the page being navigated to.
  const fault = useSearchParams().get('e2e-fault');

  useEffect(() => {
    if (layer !== 'page') return;
    if (fault === 'request') {
      apiRequest(`${crmBaseUrl}/api/gallery/public`).catch(() => undefined);
    } else if (fault === 'burst') {
      for (let index = 1; index <= 8; index += 1) {
        setTimeout(() => {
          throw new Error(`E2E burst fault ${index}`);
        }, 0);
      }
    } else if (fault === 'rejection') {
      void Promise.reject(new Error('E2E unhandled rejection'));
    }
  }, [fault, layer]);

  if (fault && !window.__e2eRenderFaultCleared) {
    if (layer === 'page' && fault === 'render') throw new Error('E2E render fault');
    if (layer === 'layout' && fault === 'layout-render') throw new Error('E2E root layout fault');
  }
  return null;
}
