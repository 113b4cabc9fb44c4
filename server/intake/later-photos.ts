import 'server-only';
import type { Client } from '@libsql/client';
import { enquiryReference } from '@/lib/enquiry-reference';
import { laterPhotosText, statusText, type LaterPhotosOutcome } from '@/content/claims';
import { CLAIM_PHOTOS_MAX, REFUSED_SUBMISSION_LIMIT } from '@/lib/enquiry-rules.mjs';
import { claimOfSession, recordLinkUse } from '@/server/claims/claim-links';
import { getDb } from '@/server/db';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/enquiry-config';
import { outboxWritten } from '@/server/ledger/outbox';
import { incomingDirOf, photosRoot } from '@/server/ledger/photo-store';
import { photoStorageState } from '@/server/ledger/photo-storage';
import {
  checkPhotos,
  enquiryReceiver,
  reencodePhotos,
  Refusal,
  type ReceivedPhoto,
  type ReadingRefusal,
} from '@/server/intake/receive-enquiry';
import { addPhotosLater } from '@/server/ledger/enquiry-store';
import { rateLimitKey } from '@/server/proxy-client-address.mjs';
import { createRateLimiter, type RateLimiter } from '@/server/rate-limiter';

/**
 * Photos a customer adds to their claim from its status page, as the way in read them: the reference
 * in the post's address and the status page's cookie (its value), which together open the claim.
 */
export type LaterPhotosSubmission = { reference: string; session: string | undefined; photos: readonly ReceivedPhoto[]; client: string };

/**
 * What became of them. `reference`: the claim's, when the cookie opened one (its status page is the one
 * to go back to). `outcome`: the fixed reason a page without script shows; `message`, the scripted page's words.
 */
export type LaterPhotosResult =
  | { kind: 'added'; status: 201; count: number; reference: string; message: string }
  | {
      kind: 'refused';
      status: 400 | 404 | 409 | 413 | 422 | 429 | 503;
      outcome: LaterPhotosOutcome | 'not-found';
      message: string;
      reference?: string;
      retryAfterSeconds?: number;
    };

export type ClaimPhotosDeps = {
  config?: EnquiryConfig;
  limiter?: RateLimiter;
  refusedLimiter?: RateLimiter;
  db?: () => Promise<Client>;
  wake?: () => void;
  now?: () => number;
  photosRoot?: string;
};

const READING_OUTCOMES: Record<ReadingRefusal['reason'], { status: 400 | 413; outcome: LaterPhotosOutcome }> = {
  'photo-too-large': { status: 413, outcome: 'too-large' },
  'too-many-photos': { status: 413, outcome: 'too-many' },
  'body-too-large': { status: 413, outcome: 'too-many' },
  'text-too-large': { status: 413, outcome: 'malformed' },
  malformed: { status: 400, outcome: 'malformed' },
};

/**
 * More photos on the same reference: the status page's cookie (the claim's signed status link traded
 * for it, or a look-up that found the claim) opens it;
 * the photos pass the enquiry form's own checks (first bytes, header and pixel budget, then re-encoded
 * without their metadata), within the same budgets per client (the process's: claimPhotos), the photo storage's room and
 * CLAIM_PHOTOS_MAX per claim, and reach the company in one "More photos for HC-…" follow-up per batch.
 */
export function createClaimPhotos(deps: ClaimPhotosDeps = {}) {
  const config = deps.config ?? loadEnquiryConfig();
  const now = deps.now ?? Date.now;
  const limiter = deps.limiter ?? createRateLimiter({ limit: config.rateLimit, windowMs: config.rateWindowMs, now });
  const refusedLimiter = deps.refusedLimiter ?? createRateLimiter({ ...REFUSED_SUBMISSION_LIMIT, now });
  const db = deps.db ?? getDb;
  const wake = deps.wake ?? outboxWritten;
  const root = () => deps.photosRoot ?? photosRoot();

  const refused = (
    status: Extract<LaterPhotosResult, { kind: 'refused' }>['status'],
    outcome: LaterPhotosOutcome | 'not-found',
    extra: { message?: string; reference?: string; retryAfterSeconds?: number } = {},
  ): LaterPhotosResult => ({
    kind: 'refused',
    status,
    outcome,
    message: extra.message ?? (outcome === 'not-found' ? statusText.notFound : laterPhotosText.outcomes[outcome]),
    ...(extra.reference ? { reference: extra.reference } : {}),
    ...(extra.retryAfterSeconds ? { retryAfterSeconds: extra.retryAfterSeconds } : {}),
  });

  /** A refusal that draws on the client's budget of refused posts. */
  function refuse(client: string, result: LaterPhotosResult): LaterPhotosResult {
    refusedLimiter.hit(rateLimitKey(client));
    return result;
  }

  async function add({ reference: claimed, session, photos, client }: LaterPhotosSubmission): Promise<LaterPhotosResult> {
    const database = await db();
    const enquiryId = await claimOfSession(database, 'status', claimed, session, now());
    if (enquiryId === null) return refuse(client, refused(404, 'not-found'));
    const reference = enquiryReference(enquiryId);
    const back = { reference };
    const sent = photos.filter((photo) => photo.bytes > 0);
    if (sent.length === 0) return refuse(client, refused(400, 'none', back));
    const checked = await checkPhotos(sent);
    if (checked instanceof Refusal) return refuse(client, refused(422, 'not-a-photo', { ...back, message: checked.errors?.[0]?.msg }));
    if (checked.some(({ photo }) => photo.source === undefined)) return refuse(client, refused(503, 'unavailable', back));

    const decision = limiter.hit(rateLimitKey(client));
    if (!decision.allowed) return refused(429, 'rate-limited', { ...back, retryAfterSeconds: decision.retryAfterSeconds });
    const processed = await reencodePhotos(checked);
    if (processed instanceof Refusal) return refuse(client, refused(422, 'not-a-photo', { ...back, message: processed.errors?.[0]?.msg }));

    const stored = await addPhotosLater(database, enquiryId, processed, now(), {
      photosRoot: root(),
      maxPhotos: CLAIM_PHOTOS_MAX,
      tellCrm: config.tellCrm,
    });
    if (stored.kind === 'full') return refused(413, 'full', { ...back, message: laterPhotosText.roomLeft(stored.room) });
    if (stored.kind === 'conflict') return refused(409, 'conflict', back);
    await recordLinkUse(database, enquiryId, 'status', 'photos', now());
    wake();
    return { kind: 'added', status: 201, count: stored.count, reference, message: laterPhotosText.added(stored.count, reference) };
  }

  return {
    /** Before the body is read: a client over either of its own budgets costs no parsing. */
    turnAway(client: string): LaterPhotosResult | undefined {
      for (const budget of [limiter, refusedLimiter]) {
        const early = budget.peek(rateLimitKey(client));
        if (!early.allowed) return refused(429, 'rate-limited', { retryAfterSeconds: early.retryAfterSeconds });
      }
      return undefined;
    },
    /**
     * Before the body is read: a post whose cookie opens no claim by the reference in its address (none
     * sent, expired, forged, revoked, another claim's) is answered (404) and counted against the client.
     */
    async refuseUnknownClaim(client: string, reference: string, session: string | undefined): Promise<LaterPhotosResult | undefined> {
      if ((await claimOfSession(await db(), 'status', reference, session, now())) !== null) return undefined;
      return refuse(client, refused(404, 'not-found'));
    },
    /** A body that could not be read as photos (for a claim whose cookie was checked): answered, and counted against the client. */
    refuseReading(client: string, reading: ReadingRefusal, reference: string): LaterPhotosResult {
      const { status, outcome } = READING_OUTCOMES[reading.reason];
      return refuse(client, refused(status, outcome, { reference: reference.toUpperCase() }));
    },
    async photosCanBeKept(): Promise<boolean> {
      try {
        const limits = { maxBytes: config.photosMaxBytes, minFreeBytes: config.photosMinFreeBytes };
        return (await photoStorageState(await db(), root(), limits)).state === 'ok';
      } catch {
        return true;
      }
    },
    incomingDir: () => incomingDirOf(root()),
    add,
  };
}

export type ClaimPhotos = ReturnType<typeof createClaimPhotos>;

let shared: ClaimPhotos | undefined;

/** The process's photos-later receiver, drawing on the enquiry form's own budgets per client, made on first use. */
export function claimPhotos(): ClaimPhotos {
  shared ??= createClaimPhotos(enquiryReceiver().budgets);
  return shared;
}
