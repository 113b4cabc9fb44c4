// A database client whose one write that records a send (an UPDATE setting sent_at: an outbox job's or
// a digest's) fails with a disk error while `failing.on` is set; every other call goes through.
import type { Client } from '@libsql/client';

const recordsASend = (sql: string) => /^\s*update\b/i.test(sql) && /\bsent_at"?\s*=/.test(sql);

export function failingToRecordSends(client: Client) {
  const failing = { on: true, refused: 0 };
  const proxy = new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'execute') {
        return async (statement: string | { sql: string; args?: unknown }) => {
          const sql = typeof statement === 'string' ? statement : statement.sql;
          if (failing.on && recordsASend(sql)) {
            failing.refused += 1;
            throw Object.assign(new Error('SQLITE_IOERR: disk I/O error'), { code: 'SQLITE_IOERR' });
          }
          return target.execute(statement as Parameters<Client['execute']>[0]);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { client: proxy, failing };
}
