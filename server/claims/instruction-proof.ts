import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { getDb, orm } from '@/server/base/db';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { claimLinkToken, claimOfSession, claimOfToken } from '@/server/claims/claim-links';
import { domainOfAddress } from '@/server/ledger/instructing-organisation';
import { enquiries } from '@/server/base/db-schema';

/**
 * An instruction counts for an instructing organisation (its portfolio, CSV and figures) only once its
 * sender is proven, since anyone can type an address at an insurer's domain into the form:
 *   session  it was sent by someone signed in with that organisation's portfolio cookie
 *            (server/portfolio/signed-in-sender.ts)
 *   mailbox  its sender confirmed it from the acknowledgement e-mailed to that address
 *   company  the company named the organisation (a signed CRM event)
 * Until then the claim names the organisation (`claimed_organisation_id`) and shows nowhere in its view.
 */
export type InstructionProof = 'session' | 'mailbox' | 'company';

/**
 * Proves the organisation an instruction names: the claim is that organisation's from now on. Changes
 * nothing for a claim that names none, or whose organisation is proven already. True when it changed.
 */
export async function proveInstruction(db: Client, enquiryId: number, proof: InstructionProof): Promise<boolean> {
  const e = enquiries;
  const { rowsAffected } = await orm(db)
    .update(e)
    .set({ organisationId: e.claimedOrganisationId, organisationProof: proof })
    .where(and(eq(e.id, enquiryId), isNull(e.organisationId), isNotNull(e.claimedOrganisationId), eq(e.disposition, 'accepted')));
  return rowsAffected > 0;
}

/**
 * The cookie the status link in an instruction's acknowledgement sets beside the status page's session
 * while the instruction waits for proof: only that e-mail's link sets it (not the look-up, which anyone
 * who typed the instruction can use), and it proves nothing by itself, since mail scanners open every
 * link. The sender proves the mailbox by pressing the page's confirm button, which posts it.
 */
export const INSTRUCTION_CONFIRM_COOKIE = 'instruction-confirm';

/** The name of the organisation an instruction names while it waits for proof, or null. */
export async function organisationAwaitingProof(db: Client, enquiryId: number): Promise<string | null> {
  const { rows } = await db.execute({
    sql: `SELECT o.name FROM enquiries e JOIN organisations o ON o.id = e.claimed_organisation_id
      WHERE e.id = ? AND e.organisation_id IS NULL AND e.disposition = 'accepted'`,
    args: [enquiryId],
  });
  return rows.length > 0 ? String(rows[0]!.name) : null;
}

/** The confirm cookie's value for an instruction waiting for proof; null when it waits for none. */
export async function instructionConfirmValue(db: Client, enquiryId: number): Promise<string | null> {
  if ((await organisationAwaitingProof(db, enquiryId)) === null) return null;
  return claimLinkToken(db, 'instruction', enquiryId);
}

/** Whether a confirm cookie's value is this claim's. */
export async function isInstructionConfirmValue(db: Client, enquiryId: number, value: string | undefined): Promise<boolean> {
  return value !== undefined && (await claimOfToken(db, 'instruction', value)) === enquiryId;
}

/**
 * The sender's confirmation from the status page the acknowledgement's link opened: proves the mailbox
 * when the page's confirm cookie is this claim's. True when the instruction is proven now.
 */
export async function confirmInstructionFromMailbox(reference: string, confirmValue: string | undefined): Promise<boolean> {
  if (!isEnquiryReference(reference)) return false;
  const db = await getDb();
  const id = enquiryIdOf(reference);
  if (!(await isInstructionConfirmValue(db, id, confirmValue))) return false;
  return (await proveInstruction(db, id, 'mailbox')) || (await isProven(db, id));
}

/** Whether a claim's organisation is proven (a second press of a confirm button finds it so). */
async function isProven(db: Client, enquiryId: number): Promise<boolean> {
  const { rows } = await db.execute({ sql: 'SELECT organisation_id FROM enquiries WHERE id = ?', args: [enquiryId] });
  return rows.length > 0 && rows[0]!.organisation_id !== null;
}

/**
 * For the status page: the organisation an instruction names and whether it still waits for proof, when
 * the page's confirm cookie is the claim's (it opened by the acknowledgement's link); null otherwise.
 */
export async function instructionToConfirm(
  reference: string,
  confirmValue: string | undefined,
): Promise<{ organisation: string; waiting: boolean } | null> {
  if (!isEnquiryReference(reference) || confirmValue === undefined) return null;
  const db = await getDb();
  const id = enquiryIdOf(reference);
  if (!(await isInstructionConfirmValue(db, id, confirmValue))) return null;
  const { rows } = await db.execute({
    sql: `SELECT o.name, e.organisation_id FROM enquiries e JOIN organisations o ON o.id = e.claimed_organisation_id
      WHERE e.id = ? AND e.disposition = 'accepted'`,
    args: [id],
  });
  const row = rows[0];
  return row ? { organisation: String(row.name), waiting: row.organisation_id === null } : null;
}

/** How a claim stands with the organisation its instruction names, for the company's staff page. */
export type InstructionStanding =
  { kind: 'proven'; organisation: string; proof: InstructionProof } | { kind: 'unconfirmed'; organisation: string; domain: string };

export async function instructionStanding(db: Client, enquiryId: number): Promise<InstructionStanding | null> {
  const { rows } = await db.execute({
    sql: `SELECT e.email, e.organisation_proof, proven.name AS proven, claimed.name AS claimed
      FROM enquiries e
      LEFT JOIN organisations proven ON proven.id = e.organisation_id
      LEFT JOIN organisations claimed ON claimed.id = e.claimed_organisation_id
      WHERE e.id = ? AND e.disposition = 'accepted'`,
    args: [enquiryId],
  });
  const row = rows[0];
  if (!row) return null;
  if (row.proven !== null)
    return { kind: 'proven', organisation: String(row.proven), proof: String(row.organisation_proof) as InstructionProof };
  if (row.claimed === null) return null;
  return { kind: 'unconfirmed', organisation: String(row.claimed), domain: domainOfAddress(String(row.email)) ?? '' };
}

/** The company's confirmation from the staff page, opened by its cookie: the organisation the address names is the claim's. */
export async function confirmInstructionByCompany(reference: string, staffSession: string | undefined, now: number): Promise<boolean> {
  const db = await getDb();
  const id = await claimOfSession(db, 'update', reference, staffSession, now);
  return id !== null && ((await proveInstruction(db, id, 'company')) || (await isProven(db, id)));
}
