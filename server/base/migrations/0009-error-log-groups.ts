import type { Migration } from '@/server/base/migrations';
import { errorGroupKey } from '@/server/base/error-group-key';

/**
 * Visitors' reports of one failure (the same message, category and path) become one row with a count
 * and the time it was last seen: a flood of identical reports is one row, and an outage reported by
 * every visitor's browser is one row with a large count (server/error-log/store.ts). received_at stays
 * the first time the failure was seen. The server's own entries keep one row each (group_key NULL).
 */
export const errorLogGroupsMigration: Migration = {
  id: '0009-error-log-groups',
  statements: [
    `ALTER TABLE error_logs ADD COLUMN group_key TEXT`,
    `ALTER TABLE error_logs ADD COLUMN occurrences INTEGER NOT NULL DEFAULT 1`,
    `ALTER TABLE error_logs ADD COLUMN last_seen_at TEXT`,
    `UPDATE error_logs SET last_seen_at = received_at`,
    `CREATE INDEX error_logs_last_seen ON error_logs (last_seen_at)`,
  ],
  // SQLite has no SHA-256: the stored visitors' rows are keyed by the same function as new ones, and
  // those of one group merged into the newest (first seen and count kept) before the key is made unique.
  async after(tx) {
    const rows = await tx.execute(
      `SELECT id, category, path, message, received_at FROM error_logs WHERE reported_by = 'visitor' ORDER BY id`,
    );
    const groups = new Map<string, { ids: number[]; firstSeen: string; lastSeen: string }>();
    for (const row of rows.rows) {
      const key = errorGroupKey({
        category: String(row.category),
        path: row.path == null ? null : String(row.path),
        message: String(row.message),
      });
      const receivedAt = String(row.received_at);
      const group = groups.get(key) ?? { ids: [], firstSeen: receivedAt, lastSeen: receivedAt };
      group.ids.push(Number(row.id));
      if (receivedAt < group.firstSeen) group.firstSeen = receivedAt;
      if (receivedAt > group.lastSeen) group.lastSeen = receivedAt;
      groups.set(key, group);
    }
    for (const [key, { ids, firstSeen, lastSeen }] of groups) {
      const kept = ids[ids.length - 1]!;
      await tx.execute({
        sql: 'UPDATE error_logs SET group_key = ?, occurrences = ?, received_at = ?, last_seen_at = ? WHERE id = ?',
        args: [key, ids.length, firstSeen, lastSeen, kept],
      });
      for (let start = 0; start < ids.length - 1; start += 500) {
        const merged = ids.slice(start, Math.min(start + 500, ids.length - 1));
        await tx.execute({ sql: `DELETE FROM error_logs WHERE id IN (${merged.map(() => '?').join(', ')})`, args: merged });
      }
    }
    await tx.execute(`CREATE UNIQUE INDEX error_logs_group_key ON error_logs (group_key)`);
  },
};
