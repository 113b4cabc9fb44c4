import 'server-only';
import { createHash } from 'node:crypto';

/**
 * The key that makes visitors' reports of one failure one row of error_logs: the same message,
 * category and path (whatever the address, level, stack or browser). A hash, so the unique index stays
 * small whatever the message's length.
 */
export function errorGroupKey(record: { category: string; path?: string | null; message: string }): string {
  return createHash('sha256')
    .update(JSON.stringify([record.category, record.path ?? null, record.message]))
    .digest('hex');
}
