import { ApiError } from '@/lib/api-error';
import type { Logger } from '@/lib/logger';

function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  return '';
}

/**
 * Logs uncaught errors and unhandled promise rejections and suppresses the browser's default
 * reporting of them. Returns a function that removes the handlers.
 */
export function installGlobalErrorHandlers(target: Window, log: Logger): () => void {
  const onError = (event: ErrorEvent) => {
    event.preventDefault();
    log.error(event.message || messageOf(event.error) || 'Uncaught error', {
      error: event.error,
      metadata: {
        handler: 'window.error',
        filename: event.filename || undefined,
        line: event.lineno || undefined,
        column: event.colno || undefined,
      },
    });
  };

  const onRejection = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    const reason: unknown = event.reason;
    log.error(`Unhandled promise rejection: ${messageOf(reason) || 'no reason given'}`, {
      error: reason,
      metadata: { handler: 'window.unhandledrejection' },
      // apiRequest has already reported (or deliberately not reported) its own failures.
      localOnly: reason instanceof ApiError,
    });
  };

  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
