'use client';

import { useEffect, useState, type RefObject } from 'react';

/** True once the element has come within `rootMargin` of the viewport (and stays true). */
export function useNearViewport(ref: RefObject<Element | null>, rootMargin = '300px'): boolean {
  // Without IntersectionObserver (very old browsers) everything counts as near at once.
  const [near, setNear] = useState(() => typeof window !== 'undefined' && typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref, rootMargin]);
  return near;
}
