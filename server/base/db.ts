import 'server-only';
import { createClient, type Client, type InStatement, type InValue, type ResultSet } from '@libsql/client';
import { getTableColumns, is, sql, SQL, type SQLChunk } from 'drizzle-orm';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import type { AnySQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { config } from '@/server/base/config.mjs';
import { schema } from '@/server/base/db-schema';
import { migrations, type Migration } from '@/server/base/migrations';
import { createPrivateDatabaseFile, databaseFileOf } from '@/server/base/private-files';

let database: Promise<Client> | undefined;

/** The typed query builder over a connection: every store queries through it (decision 0008). */
type Database = LibSQLDatabase<typeof schema>;

const builders = new WeakMap<Client, Database>();

/** The query builder of a connection (one per connection, made on first use). */
export function orm(client: Client): Database {
  let builder = builders.get(client);
  if (!builder) {
    builder = drizzle(client, { schema });
    builders.set(client, builder);
  }
  return builder;
}

/** A row for `insertSelect`: a value per column, or an SQL expression over the SELECT's source. */
type InsertSelectRow<T extends SQLiteTable> = { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | SQL };

/**
 * `INSERT INTO t ("a", "b") SELECT va, vb <source>`: one row, its columns and values side by side in one
 * object, stored only when `source` (`FROM … WHERE …`) yields a row. For an insert that depends on
 * another row or on a condition in the same statement (drizzle's own insert-select wants every column).
 */
export function insertSelect<T extends SQLiteTable>(table: T, row: InsertSelectRow<T>, source: SQL): SQL {
  const columns = getTableColumns(table) as Record<string, AnySQLiteColumn>;
  const given = Object.entries(row as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const list = (parts: SQLChunk[]) => sql.join(parts, sql`, `);
  const names = list(given.map(([key]) => sql.identifier(columns[key]!.name)));
  const values = list(given.map(([key, value]) => (is(value, SQL) ? value : sql.param(value, columns[key]))));
  return sql`INSERT INTO ${table} (${names}) SELECT ${values} ${source}`;
}

type Compiled = { sql: string; params: unknown[] };
/** A query of the builder (`orm(db).update(…)`) or a raw statement (`orm(db).run(sql\`…\`)`). */
export type BuiltQuery = { toSQL(): Compiled } | { getQuery(): Compiled };

/** A built query as a statement of the libSQL client (for a batch or an interactive transaction). */
function toStatement(query: BuiltQuery): InStatement {
  const built = 'toSQL' in query ? query.toSQL() : query.getQuery();
  return { sql: built.sql, args: built.params as InValue[] };
}

/**
 * Runs queries built with `orm(client)` as one write transaction. drizzle's own `batch` opens a
 * deferred transaction, which under WAL can fail at once with SQLITE_BUSY when it upgrades to a writer
 * behind another process instead of waiting BUSY_TIMEOUT_MS; a write batch takes the lock up front.
 */
export async function writeBatch(client: Client, queries: readonly BuiltQuery[]) {
  return client.batch(queries.map(toStatement), 'write');
}

/**
 * Runs `work` in one write transaction, taking the lock up front like `writeBatch`, for a write that
 * must first read what it decides on (a count against a limit, a row it may update). `run` executes a
 * query built with `orm(client)` and gives the client's raw rows (read their columns by position);
 * a throw rolls everything back.
 */
export async function writeTransaction<T>(
  client: Client,
  work: (run: (query: BuiltQuery) => Promise<ResultSet>) => Promise<T>,
): Promise<T> {
  const tx = await client.transaction('write');
  try {
    const result = await work((query) => tx.execute(toStatement(query)));
    await tx.commit();
    return result;
  } catch (error) {
    await tx.rollback();
    throw error;
  } finally {
    tx.close();
  }
}

/**
 * How long a statement waits for another process's write lock (the server, `npm run enquiries`, a
 * backup) before failing with SQLITE_BUSY. Passed to the client so it applies to every connection of
 * its pool, including the one a transaction takes: a `PRAGMA busy_timeout` would reach only the
 * connection that ran it.
 */
export const BUSY_TIMEOUT_MS = 5000;

/** A local database file is created owner-only before libSQL opens it (server/base/private-files.ts). */
function ensureLocalFile(url: string) {
  const file = databaseFileOf(url);
  if (file) createPrivateDatabaseFile(file);
}

/**
 * Applies every migration not yet recorded in schema_migrations, each in its own write transaction.
 * Safe when two processes start at once (the server and a CLI): each migration is re-checked inside its
 * transaction, which holds the write lock, so the second process finds it applied and skips it.
 */
export async function migrate(client: Client, list: readonly Migration[] = migrations): Promise<string[]> {
  await client.execute(
    `CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`,
  );
  const applied = new Set((await client.execute('SELECT id FROM schema_migrations')).rows.map((row) => String(row.id)));
  const newlyApplied: string[] = [];
  for (const migration of list) {
    if (applied.has(migration.id)) continue;
    const tx = await client.transaction('write');
    try {
      const done = await tx.execute({ sql: 'SELECT 1 FROM schema_migrations WHERE id = ?', args: [migration.id] });
      if (done.rows.length > 0) {
        await tx.rollback();
        continue;
      }
      for (const statement of migration.statements) await tx.execute(statement);
      await migration.after?.(tx);
      await tx.execute({ sql: 'INSERT INTO schema_migrations (id) VALUES (?)', args: [migration.id] });
      await tx.commit();
      newlyApplied.push(migration.id);
    } catch (error) {
      await tx.rollback();
      throw new Error(`Migration ${migration.id} failed`, { cause: error });
    } finally {
      tx.close();
    }
  }
  return newlyApplied;
}

export async function openDatabase(url: string, authToken?: string): Promise<Client> {
  ensureLocalFile(url);
  const local = url.startsWith('file:');
  const client = createClient({ url, authToken, ...(local ? { timeout: BUSY_TIMEOUT_MS } : {}) });
  // Several processes (the server, `npm run logs`, `npm run enquiries`) may share the file. When they
  // open a new file at the same moment, SQLite can answer SQLITE_BUSY without waiting (switching the
  // journal mode, recovering the WAL); both steps are idempotent, so they are tried again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (local) await client.execute('PRAGMA journal_mode = WAL');
      await migrate(client);
      return client;
    } catch (error) {
      const busy = /SQLITE_BUSY|database is locked/.test(String(error));
      if (!busy || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** The site's database, opened and migrated once per process. */
export function getDb(): Promise<Client> {
  if (!database) {
    const { url, authToken } = config().database;
    database = openDatabase(url, authToken).catch((error: unknown) => {
      database = undefined;
      throw error;
    });
  }
  return database;
}
