import 'server-only';
import type { Instrumentation } from 'next';
import { LOG_APPLICATION, type ErrorLogRecord } from '@/lib/error-log';
import { capRecordSize } from '@/lib/error-log';
import { storeErrorLog } from '@/server/error-log/store';

export const LOG_SOURCE_BACKEND = 'backend';

type Params = Parameters<Instrumentation.onRequestError>;

function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === 'LibsqlError' || (typeof code === 'string' && code.startsWith('SQLITE_'));
}

/** Builds the error-log record for a failure Next reports through onRequestError. */
export function serverErrorRecord(error: unknown, request: Params[1], context: Params[2]): ErrorLogRecord {
  const digest = typeof error === 'object' && error !== null && 'digest' in error ? String(error.digest) : undefined;
  const userAgent = request.headers['user-agent'];
  return capRecordSize({
    application: LOG_APPLICATION,
    level: 'error',
    message: (error instanceof Error ? error.message : String(error)) || 'Unknown server error',
    stack: error instanceof Error ? (error.stack ?? null) : null,
    metadata: {
      routePath: context.routePath,
      routeType: context.routeType,
      routerKind: context.routerKind,
      ...(context.renderSource ? { renderSource: context.renderSource } : {}),
      ...(digest ? { digest } : {}),
    },
    source: LOG_SOURCE_BACKEND,
    userId: null,
    statusCode: 500,
    category: isDatabaseError(error) ? 'database' : 'server',
    path: request.path,
    method: request.method,
    userAgent: Array.isArray(userAgent) ? userAgent.join(', ') : (userAgent ?? null),
  });
}

export async function recordServerError(error: unknown, request: Params[1], context: Params[2]): Promise<void> {
  await storeErrorLog(serverErrorRecord(error, request, context), { reportedBy: 'server', clientAddress: 'server' });
}
