import { createClient, type Client } from '@libsql/client';

/**
 * The site's database as a test reads or steers it, beside the running server: like the site's own
 * clients (server/base/db.ts), each statement waits up to five seconds for the server's write lock instead of
 * failing at once with SQLITE_BUSY.
 */
export const openTestDatabase = (url: string): Client => createClient({ url, timeout: 5000 });
