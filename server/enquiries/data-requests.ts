import 'server-only';
import type { Client } from '@libsql/client';

/** How a person's e-mail address is matched: trimmed, case-insensitive (addresses are in practice). */
const matches = 'lower(trim(email)) = lower(trim(?))';

export type PersonalDataExport = {
  email: string;
  exportedAt: string;
  enquiries: Record<string, unknown>[];
};

/**
 * Everything the site holds about an e-mail address (a subject access request): every enquiry sent
 * with it, with the client address, verification and the state of its notification. Error logs hold
 * no contact details (the browser's logger never sends them), so they are not part of it.
 */
export async function exportPersonalData(db: Client, email: string, now: number = Date.now()): Promise<PersonalDataExport> {
  const result = await db.execute({
    sql: `SELECT e.id, e.received_at, e.name, e.email, e.phone, e.subject, e.message, e.client_address, e.disposition,
                 e.verification, e.recaptcha_score, n.status AS notification_status, n.sent_at AS notification_sent_at
          FROM enquiries e LEFT JOIN enquiry_notifications n ON n.enquiry_id = e.id
          WHERE ${matches.replaceAll('email', 'e.email')} ORDER BY e.id`,
    args: [email],
  });
  return {
    email,
    exportedAt: new Date(now).toISOString(),
    enquiries: result.rows.map((row) => ({
      id: Number(row.id),
      receivedAt: row.received_at,
      name: row.name,
      email: row.email,
      phone: row.phone,
      subject: row.subject,
      message: row.message,
      clientAddress: row.client_address,
      disposition: row.disposition,
      verification: row.verification,
      recaptchaScore: row.recaptcha_score,
      notification: row.notification_status === null ? null : { status: row.notification_status, sentAt: row.notification_sent_at },
    })),
  };
}

/** Deletes every enquiry sent with the address, and its notification even if it is still pending. */
export async function erasePersonalData(db: Client, email: string): Promise<{ enquiries: number; notifications: number }> {
  const results = await db.batch(
    [
      { sql: `DELETE FROM enquiry_notifications WHERE enquiry_id IN (SELECT id FROM enquiries WHERE ${matches})`, args: [email] },
      { sql: `DELETE FROM enquiries WHERE ${matches}`, args: [email] },
    ],
    'write',
  );
  return { notifications: results[0]?.rowsAffected ?? 0, enquiries: results[1]?.rowsAffected ?? 0 };
}
