import { createClient, type Client, type InStatement } from '@libsql/client';
import { expect } from '@playwright/test';

/**
 * The site's database as a test reads or steers it, beside the running server: like the site's own
 * clients (server/base/db.ts), each statement waits up to five seconds for the server's write lock instead of
 * failing at once with SQLITE_BUSY.
 */
export const openTestDatabase = (url: string): Client => createClient({ url, timeout: 5000 });

/** Which enquiries: the one with this reference, or every one with this subject. */
export type EnquiriesOf = { reference: string } | { subject: string };

const enquiriesWhere = (of: EnquiriesOf) =>
  'reference' in of ? { sql: 'e.reference = ?', args: [of.reference] } : { sql: 'e.subject = ?', args: [of.subject] };

/** Polls `statement` (one row per enquiry) until there is a row and `done` holds for every one. */
async function pollEnquiries(
  databaseUrl: string,
  statement: InStatement,
  done: (row: Record<string, unknown>) => boolean,
  message: string,
) {
  const db = openTestDatabase(databaseUrl);
  try {
    await expect
      .poll(
        async () => {
          const { rows } = await db.execute(statement);
          return rows.length > 0 && rows.every((row) => done(row as Record<string, unknown>));
        },
        { message, timeout: 15_000 },
      )
      .toBe(true);
  } finally {
    db.close();
  }
}

/**
 * Resolves once the outbox has finished every e-mail job of the enquiries `of` names: each has jobs,
 * and none is pending (each sent, or failed for good). An enquiry's jobs are written in the same write
 * as what they tell of, and the worker claims only pending ones, so from then on it sends nothing more
 * for these enquiries: the e-mails they have are all they get.
 */
export async function outboxFinished(databaseUrl: string, of: EnquiriesOf): Promise<void> {
  const where = enquiriesWhere(of);
  await pollEnquiries(
    databaseUrl,
    {
      sql: `SELECT (SELECT count(*) FROM enquiry_notifications n WHERE n.enquiry_id = e.id) AS jobs,
              (SELECT count(*) FROM enquiry_notifications n WHERE n.enquiry_id = e.id AND n.status = 'pending') AS pending
            FROM enquiries e WHERE ${where.sql}`,
      args: where.args,
    },
    (row) => Number(row.jobs) > 0 && Number(row.pending) === 0,
    `the outbox finished the e-mails of ${JSON.stringify(of)}`,
  );
}

/**
 * Resolves once the CRM's webhook worker has finished every event of the enquiries `of` names: each
 * has events, none is pending (each delivered, or failed for good), and none still waits for its
 * `enquiry.received` to be written. Events are written in the same write as what they tell of, and
 * the worker delivers only pending ones, so from then on the CRM hears nothing more of these enquiries.
 */
export async function webhooksFinished(databaseUrl: string, of: EnquiriesOf): Promise<void> {
  const where = enquiriesWhere(of);
  await pollEnquiries(
    databaseUrl,
    {
      sql: `SELECT e.crm_owed_received AS owed,
              (SELECT count(*) FROM webhook_events w WHERE w.enquiry_id = e.id) AS events,
              (SELECT count(*) FROM webhook_events w WHERE w.enquiry_id = e.id AND w.status = 'pending') AS pending
            FROM enquiries e WHERE ${where.sql}`,
      args: where.args,
    },
    (row) => Number(row.owed) === 0 && Number(row.events) > 0 && Number(row.pending) === 0,
    `the CRM's webhooks of ${JSON.stringify(of)} finished`,
  );
}
