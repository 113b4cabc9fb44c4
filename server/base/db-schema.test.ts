import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/server/base/db';
import { schema } from '@/server/base/db-schema';

// The row types of every query come from server/base/db-schema.ts, the tables from the migrations: this
// holds the two to the same columns, types, nullability, defaults' presence and indexes.

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-schema-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type ColumnInfo = { name: string; type: string; notnull: number; pk: number; dflt_value: string | null };

describe('server/base/db-schema.ts matches the migrated database', async () => {
  const client = await openDatabase(`file:${path.join(folder, 'site.db')}`);
  const tables = Object.values(schema) as SQLiteTable[];

  it('has a table in the schema for every table the migrations create', async () => {
    const created = (
      await client.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'",
      )
    ).rows
      .map((row) => String(row.name))
      .sort();
    expect(tables.map((table) => getTableConfig(table).name).sort()).toEqual(created);
  });

  for (const table of tables) {
    const config = getTableConfig(table);
    it(`${config.name}: the same columns, types, NOT NULL, primary key and defaults`, async () => {
      const columns = (await client.execute(`PRAGMA table_info(${config.name})`)).rows as unknown as ColumnInfo[];
      const inDatabase = columns.map((column) => ({
        name: column.name,
        type: column.type,
        notNull: column.notnull === 1 || column.pk === 1,
        primaryKey: column.pk === 1,
        hasDefault: column.dflt_value !== null,
      }));
      const inSchema = config.columns.map((column) => ({
        name: column.name,
        type: column.getSQLType().toUpperCase(),
        notNull: column.notNull,
        primaryKey: column.primary,
        // drizzle counts an autoincrement key as having a default; SQLite reports none.
        hasDefault: column.hasDefault && !column.primary,
      }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(inSchema.sort(byName)).toEqual(inDatabase.sort(byName));
    });

    it(`${config.name}: the same indexes`, async () => {
      const indexes = (
        await client.execute(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`, [config.name])
      ).rows
        .map((row) => String(row.name))
        .sort();
      expect(config.indexes.map((index) => index.config.name).sort()).toEqual(indexes);
    });
  }
});
