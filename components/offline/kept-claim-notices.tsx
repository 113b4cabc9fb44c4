'use client';

import { useEffect, useState, type ComponentType } from 'react';

/**
 * Mounted once in the root layout (which never unmounts): what registers the service worker and says
 * what became of a claim kept on this phone is loaded after the page's load event, so no page's first
 * load carries it (kept-claim-notice-list.tsx). A page with nothing to say has no status region of its
 * own for it.
 */
export function KeptClaimNotices() {
  const [List, setList] = useState<ComponentType | null>(null);

  useEffect(() => {
    const start = () =>
      void import('@/components/offline/kept-claim-notice-list').then((loaded) => setList(() => loaded.KeptClaimNoticeList));
    if (document.readyState === 'complete') start();
    else addEventListener('load', start);
  }, []);

  return List ? <List /> : null;
}
