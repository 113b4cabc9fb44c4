// Where an operator command writes, so one command runs the same from the command line (the process's
// own streams) and in a test's tool host (tests/support/tool-host.ts), which keeps what it printed.
import type { Client } from '@libsql/client';
import { config } from '@/server/base/config.mjs';
import { openDatabase } from '@/server/base/db';

/** A command's output: lines as console.log and console.error print them, and text written as is. */
export type CommandIo = {
  log(line: string): void;
  error(line: string): void;
  write(text: string): void;
};

/** The process's stdout and stderr: the command as the operator runs it. */
export const processIo: CommandIo = {
  log: (line) => console.log(line),
  error: (line) => console.error(line),
  write: (text) => void process.stdout.write(text),
};

/** A command's entry point: its arguments (without node and the script) in, its exit code out. */
export type CommandMain = (args: readonly string[], io: CommandIo) => Promise<number>;

/**
 * Runs `run` with the database at DATABASE_URL, opened (and migrated) for this run and closed after, as
 * a command run once does with the process's database. A client of its own rather than getDb()'s,
 * which a process keeps: a tool host runs the command many times.
 */
export async function withDatabase<T>(run: (db: Client) => Promise<T>): Promise<T> {
  const { url, authToken } = config().database;
  const db = await openDatabase(url, authToken);
  try {
    return await run(db);
  } finally {
    db.close();
  }
}
