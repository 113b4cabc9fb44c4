'use client';

import { useEffect, useState, type ComponentType } from 'react';

/**
 * Mounted once in the root layout (which never unmounts): the place where a page says what became of
 * a claim kept on this phone. What registers the service worker and says it is loaded after the page's
 * load event, so no page's first load carries it (kept-claim-notice-list.tsx).
 */
export function KeptClaimNotices() {
  const [List, setList] = useState<ComponentType | null>(null);

  useEffect(() => {
    const start = () =>
      void import('@/components/offline/kept-claim-notice-list').then((loaded) => setList(() => loaded.KeptClaimNoticeList));
    if (document.readyState === 'complete') start();
    else addEventListener('load', start);
  }, []);

  return <div role="status">{List ? <List /> : null}</div>;
}
