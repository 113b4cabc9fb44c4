// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { installGlobalErrorHandlers } from '@/lib/global-error-handlers';
import { createLogger } from '@/lib/logger';

function setup() {
  const send = vi.fn(async (_url: string, _body: string): Promise<unknown> => undefined);
  const out = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const logger = createLogger({ endpoint: '/api/error-logs', send, console: out });
  const uninstall = installGlobalErrorHandlers(window, logger);
  return { send, out, uninstall };
}

function rejectionEvent(reason: unknown) {
  const event = new Event('unhandledrejection', { cancelable: true });
  Object.defineProperty(event, 'reason', { value: reason });
  return event;
}

let uninstallLast: (() => void) | undefined;
afterEach(() => uninstallLast?.());

describe('global error handlers', () => {
  it('log an uncaught error and suppress the default handling', () => {
    const { send, uninstall } = setup();
    uninstallLast = uninstall;
    const event = new ErrorEvent('error', {
      message: 'Uncaught Error: boom',
      error: new Error('boom'),
      filename: 'app.js',
      lineno: 3,
      colno: 7,
      cancelable: true,
    });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(send).toHaveBeenCalledTimes(1);
    expect(JSON.parse(send.mock.calls[0]![1])).toMatchObject({
      level: 'error',
      category: 'client',
      message: 'Uncaught Error: boom',
      metadata: { handler: 'window.error', filename: 'app.js', line: 3, column: 7 },
      stack: expect.stringContaining('boom'),
    });
  });

  it('log an unhandled rejection and suppress the default handling', () => {
    const { send, uninstall } = setup();
    uninstallLast = uninstall;
    const event = rejectionEvent(new Error('Network Error'));
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(JSON.parse(send.mock.calls[0]![1])).toMatchObject({
      message: 'Unhandled promise rejection: Network Error',
      category: 'network',
    });
  });

  it('do not report an ApiError remotely a second time', () => {
    const { send, out, uninstall } = setup();
    uninstallLast = uninstall;
    window.dispatchEvent(rejectionEvent(new ApiError('HTTP 500 from GET /x', { kind: 'server', status: 500 })));
    expect(send).not.toHaveBeenCalled();
    expect(out.error).toHaveBeenCalledTimes(1);
  });

  it('stop listening once removed', () => {
    const { send, uninstall } = setup();
    uninstall();
    window.dispatchEvent(new ErrorEvent('error', { message: 'late', cancelable: true }));
    expect(send).not.toHaveBeenCalled();
  });
});
