import { describe, expect, it } from 'vitest';
import { errorLogRecordSchema } from '@/server/error-log/record-schema';
import { serverErrorRecord } from '@/server/error-log/server-entries';

const request = { path: '/gallery?x=1', method: 'GET', headers: { 'user-agent': 'Mozilla/5.0 (test)' } };
const context = {
  routerKind: 'App Router',
  routePath: '/gallery',
  routeType: 'render',
  renderSource: 'server-rendering',
  revalidateReason: undefined,
} as const;

describe('serverErrorRecord', () => {
  it('records a server failure with source backend and category server', () => {
    const error = Object.assign(new Error('Gallery folder unreadable'), { digest: '12345' });
    const record = serverErrorRecord(error, request, context);
    expect(record).toMatchObject({
      application: 'homecare-web',
      level: 'error',
      source: 'backend',
      category: 'server',
      message: 'Gallery folder unreadable',
      statusCode: 500,
      path: '/gallery?x=1',
      method: 'GET',
      userAgent: 'Mozilla/5.0 (test)',
      metadata: { routePath: '/gallery', routeType: 'render', routerKind: 'App Router', renderSource: 'server-rendering', digest: '12345' },
    });
    expect(record.stack).toContain('Gallery folder unreadable');
    expect(errorLogRecordSchema.safeParse(record).success).toBe(true);
  });

  it('marks a database failure as category database', () => {
    const error = Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });
    expect(serverErrorRecord(error, request, context).category).toBe('database');
  });

  it('copes with a thrown non-Error', () => {
    const record = serverErrorRecord('plain string', { ...request, headers: {} }, context);
    expect(record).toMatchObject({ message: 'plain string', stack: null, userAgent: null });
  });
});
