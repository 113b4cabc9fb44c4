'use client';

import { useEffect } from 'react';
import { ERROR_BOUNDARY_SOURCE, errorBoundaryText } from '@/content/error-boundary';
import { logger } from '@/lib/logger';

/**
 * Only for a failure of the root layout itself (the page content has its own boundary inside the
 * layout). It replaces the whole document, so it is plain and styles itself.
 */
export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  useEffect(() => {
    logger.critical(`Root layout failure: ${error.message}`, {
      source: ERROR_BOUNDARY_SOURCE,
      category: 'client',
      error,
      metadata: { boundary: 'root-layout', digest: error.digest },
    });
  }, [error]);

  return (
    <html lang="en-GB">
      <body style={{ margin: 0, fontFamily: 'system-ui, sans-serif', color: '#0f172a', background: '#ffffff' }}>
        <main style={{ maxWidth: '40rem', margin: '0 auto', padding: '5rem 1rem', textAlign: 'center' }}>
          <title>{errorBoundaryText.heading}</title>
          <h1 style={{ fontSize: '2rem', color: '#0a2c47' }}>{errorBoundaryText.heading}</h1>
          <p style={{ fontSize: '1.125rem' }}>{errorBoundaryText.body}</p>
          <button
            type="button"
            onClick={() => retry()}
            style={{
              marginTop: '2rem',
              padding: '0.75rem 1.25rem',
              fontSize: '1rem',
              fontWeight: 600,
              color: '#ffffff',
              background: '#0a2c47',
              border: 0,
              borderRadius: '0.375rem',
              cursor: 'pointer',
            }}
          >
            {errorBoundaryText.retry}
          </button>
        </main>
      </body>
    </html>
  );
}
