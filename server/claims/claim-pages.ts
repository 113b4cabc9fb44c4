import 'server-only';
import type { Client } from '@libsql/client';
import { staffPage, trackPage } from '@/content/claims';
import {
  NOTE_MAX,
  isClaimStage,
  isWaitingOn,
  stageWords,
  type ClaimStatus,
  type StaffUpdateState,
  type TrackState,
} from '@/lib/claim-stages';
import { isCalendarDate, normaliseContactText } from '@/lib/contact-fields';
import { clientAddress } from '@/server/client-address';
import { claimLinkToken, claimOfToken, recordLinkUse } from '@/server/claims/claim-links';
import { claimStatus, lookUpClaim, recordStageChange } from '@/server/claims/claim-status';
import { config } from '@/server/config.mjs';
import { getDb } from '@/server/db';
import { wakeOutboxWorker } from '@/server/enquiries/outbox';
import { rateLimitKey } from '@/server/proxy-client-address.mjs';
import { createRateLimiter, type RateLimiter } from '@/server/rate-limiter';

/** Failed look-ups a client may make in an hour before it waits; a correct one from another client is unaffected. */
export const FAILED_LOOK_UPS = { limit: 10, windowMs: 60 * 60_000 } as const;

export type ClaimPageDeps = {
  db?: () => Promise<Client>;
  failedLookUps?: RateLimiter;
  now?: () => number;
  /** Whether a change saved here is told to the company's CRM (default: when CRM_WEBHOOK_URL is set). */
  tellCrm?: boolean;
};

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** The claim pages' server side: the look-up, the status by link, and the staff page's Save. */
export function createClaimPages(deps: ClaimPageDeps = {}) {
  const db = deps.db ?? getDb;
  const now = deps.now ?? Date.now;
  const failedLookUps = deps.failedLookUps ?? createRateLimiter({ ...FAILED_LOOK_UPS, now });

  async function lookUp(form: FormData, headers: Headers): Promise<TrackState> {
    const values = { reference: text(form, 'reference').slice(0, 40), email: text(form, 'email').slice(0, 320) };
    const refused = (message: string): TrackState => ({ kind: 'refused', message, values });
    const key = rateLimitKey(clientAddress(headers));
    const budget = failedLookUps.peek(key);
    if (!budget.allowed) return refused(trackPage.tooMany(Math.max(1, Math.ceil(budget.retryAfterSeconds / 60))));
    const reference = values.reference.trim().toUpperCase();
    const email = values.email.trim();
    if (!reference || !email) return refused(trackPage.incomplete);
    try {
      const client = await db();
      const id = await lookUpClaim(client, reference, email);
      const status = id === null ? null : await claimStatus(client, id);
      const statusToken = id === null ? null : await claimLinkToken(client, 'status', id);
      if (status && statusToken) return { kind: 'found', status, statusToken };
    } catch (error) {
      console.error('[claims] Could not look up a claim:', error instanceof Error ? error.message : error);
      return refused(trackPage.unavailable);
    }
    failedLookUps.hit(key);
    return refused(trackPage.notFound);
  }

  async function statusByLink(token: string): Promise<ClaimStatus | null> {
    const client = await db();
    const id = await claimOfToken(client, 'status', token);
    if (id === null) return null;
    await recordLinkUse(client, id, 'status', 'opened', now());
    return claimStatus(client, id);
  }

  async function staffClaim(token: string): Promise<ClaimStatus | null> {
    const client = await db();
    const id = await claimOfToken(client, 'update', token);
    if (id === null) return null;
    await recordLinkUse(client, id, 'update', 'opened', now());
    return claimStatus(client, id);
  }

  async function saveUpdate(token: string, form: FormData): Promise<StaffUpdateState> {
    const values = Object.fromEntries(['stage', 'nextDate', 'waitingOn', 'note', 'quiet'].map((name) => [name, text(form, name)]));
    const client = await db();
    const id = await claimOfToken(client, 'update', token);
    if (id === null) return { kind: 'refused', message: staffPage.notFound, errors: {}, values };
    const note = normaliseContactText(values.note ?? '', true);
    const nextDate = (values.nextDate ?? '').trim();
    const errors: Extract<StaffUpdateState, { kind: 'refused' }>['errors'] = {};
    if (!isClaimStage(values.stage)) errors.stage = staffPage.badStage;
    if (nextDate && !isCalendarDate(nextDate)) errors.nextDate = staffPage.badDate;
    if (note.length > NOTE_MAX) errors.note = staffPage.noteTooLong;
    if (!isClaimStage(values.stage) || Object.keys(errors).length > 0)
      return { kind: 'refused', message: staffPage.invalid, errors, values };
    const outcome = await recordStageChange(
      client,
      id,
      {
        stage: values.stage,
        waitingOn: isWaitingOn(values.waitingOn) ? values.waitingOn : null,
        nextDate: nextDate || null,
        note: note || null,
        tellCustomer: values.quiet !== 'on',
        source: 'staff',
        tellCrm: deps.tellCrm ?? config().enquiries.tellCrm,
      },
      now(),
    );
    wakeOutboxWorker();
    await recordLinkUse(client, id, 'update', 'saved', now());
    const shown = outcome === 'late' ? (await claimStatus(client, id))?.stage : undefined;
    return {
      kind: 'saved',
      message: shown ? staffPage.savedBehind(stageWords(values.stage), stageWords(shown)) : staffPage.saved(stageWords(values.stage)),
    };
  }

  return { lookUp, statusByLink, staffClaim, saveUpdate };
}

let shared: ReturnType<typeof createClaimPages> | undefined;

/** The process's claim pages (one budget of failed look-ups), made on first use. */
export function claimPages() {
  shared ??= createClaimPages();
  return shared;
}
