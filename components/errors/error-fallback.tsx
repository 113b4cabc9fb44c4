'use client';

import { useEffect, useRef } from 'react';
import { errorBoundaryText } from '@/content/error-boundary';

/** The error boundary's fallback inside the site's layout, so the header and footer stay usable. */
export function ErrorFallback({ onRetry }: { onRetry: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Move focus to the message so keyboard and screen-reader users learn what happened.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section role="alert" aria-labelledby="error-fallback-heading" className="mx-auto max-w-3xl px-4 py-20 text-center">
      <h1
        id="error-fallback-heading"
        ref={heading}
        tabIndex={-1}
        className="text-3xl font-extrabold text-brand-900 focus:outline-none md:text-4xl"
      >
        {errorBoundaryText.heading}
      </h1>
      <p className="mt-4 text-lg text-slate-700">{errorBoundaryText.body}</p>
      <button type="button" onClick={onRetry} className="btn-primary mt-8">
        {errorBoundaryText.retry}
      </button>
    </section>
  );
}
