'use client';

import { inBrowser } from '@/lib/browser';
import { Component, startTransition, type ErrorInfo, type ReactNode } from 'react';
import { unstable_rethrow, usePathname, useRouter } from 'next/navigation';
import { ERROR_BOUNDARY_SOURCE } from '@/content/error-boundary';
import { ErrorFallback } from '@/components/errors/error-fallback';
import { logger as defaultLogger, type Logger } from '@/lib/logger';

type BoundaryProps = { children: ReactNode; pathname: string; onRetry: () => void; logger: Logger };
type BoundaryState = { failed: boolean; pathname: string };

function digestOf(error: unknown) {
  return typeof error === 'object' && error !== null && 'digest' in error ? String(error.digest) : undefined;
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    // notFound(), redirect() and friends work by throwing; they belong to Next, not to us.
    unstable_rethrow(error);
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    // Following a header or footer link clears the failure.
    if (props.pathname !== state.pathname) return { failed: false, pathname: props.pathname };
    return null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    const message = error instanceof Error ? error.message : String(error);
    const path = inBrowser() ? window.location.pathname : this.props.pathname;
    this.props.logger.critical(`Render failure: ${message}`, {
      source: ERROR_BOUNDARY_SOURCE,
      category: 'client',
      error,
      path,
      metadata: { componentStack: info.componentStack ?? null, digest: digestOf(error), boundary: 'page-content' },
    });
  }

  retry = () => {
    this.props.onRetry();
    this.setState({ failed: false });
  };

  render() {
    return this.state.failed ? <ErrorFallback onRetry={this.retry} /> : this.props.children;
  }
}

/**
 * THE error boundary of the site: wraps the page content in the root layout (there is no app/error.tsx;
 * see docs/decisions/0002-one-error-boundary.md). Logs a critical entry with the component stack.
 */
export function ErrorBoundary({ children, logger = defaultLogger }: { children: ReactNode; logger?: Logger }) {
  const pathname = usePathname();
  const router = useRouter();
  // Re-fetch the server-rendered part too, in case the failure came from it.
  const onRetry = () => startTransition(() => router.refresh());
  return (
    <Boundary pathname={pathname} onRetry={onRetry} logger={logger}>
      {children}
    </Boundary>
  );
}
