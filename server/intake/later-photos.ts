import 'server-only';
import { enquiryReference } from '@/lib/enquiry-reference';
import { statusText } from '@/content/claims';
import { laterPhotosText, type LaterPhotosOutcome } from '@/content/later-photos';
import { CLAIM_PHOTOS_MAX } from '@/lib/enquiry-rules.mjs';
import { claimOfSession, recordLinkUse } from '@/server/claims/claim-links';
import { getDb } from '@/server/base/db';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import type { ReadingRefusal } from '@/server/intake/multipart-enquiry';
import { addPhotosLater } from '@/server/ledger/enquiry-store';
import { createPhotoIntake, type PhotoIntake, type PhotoIntakeDeps, type ReceivedPhoto } from '@/server/intake/photo-intake';

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

export type LaterPhotosDeps = PhotoIntakeDeps & {
  /** The photo intake whose budgets it draws on (default: one of its own, from these deps). */
  intake?: PhotoIntake;
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
 * for it, or a look-up that found the claim) opens it; then the photo intake takes them as it takes
 * the enquiry form's (first bytes, header and pixel budget, the same budgets per client, the photo
 * storage's room, re-encoded without their metadata), within CLAIM_PHOTOS_MAX per claim, and they
 * reach the company in one "More photos for HC-…" follow-up per batch.
 */
export function createLaterPhotos(deps: LaterPhotosDeps = {}) {
  const config = deps.config ?? loadEnquiryConfig();
  const intake = deps.intake ?? createPhotoIntake(deps);
  const now = deps.now ?? Date.now;
  const db = deps.db ?? getDb;

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
    intake.countRefused(client);
    return result;
  }

  async function add({ reference: claimed, session, photos, client }: LaterPhotosSubmission): Promise<LaterPhotosResult> {
    const database = await db();
    const enquiryId = await claimOfSession(database, 'status', claimed, session, now());
    if (enquiryId === null) return refuse(client, refused(404, 'not-found'));
    const reference = enquiryReference(enquiryId);
    const back = { reference };
    if (!photos.some((photo) => photo.bytes > 0)) return refuse(client, refused(400, 'none', back));

    return intake.take<LaterPhotosResult>({
      client,
      photos,
      answers: {
        refused: (message) => refused(422, 'not-a-photo', { ...back, message }),
        tooMany: (retryAfterSeconds) => refused(429, 'rate-limited', { ...back, retryAfterSeconds }),
        noRoom: () => refused(503, 'unavailable', back),
      },
      async store(processed) {
        const stored = await addPhotosLater(database, enquiryId, processed, now(), {
          photosRoot: deps.photosRoot,
          maxPhotos: CLAIM_PHOTOS_MAX,
          tellCrm: config.tellCrm,
        });
        if (stored.kind === 'full')
          return { answer: refused(413, 'full', { ...back, message: laterPhotosText.roomLeft(stored.room) }), wake: false };
        if (stored.kind === 'conflict') return { answer: refused(409, 'conflict', back), wake: false };
        await recordLinkUse(database, enquiryId, 'status', 'photos', now());
        const message = laterPhotosText.added(stored.count, reference);
        return { answer: { kind: 'added', status: 201, count: stored.count, reference, message }, wake: true };
      },
    });
  }

  return {
    /** Before the body is read: a client over either of its own budgets costs no parsing. */
    turnAway: (client: string) => intake.turnAway(client, (retryAfterSeconds) => refused(429, 'rate-limited', { retryAfterSeconds })),
    /**
     * Before the body is read: a post whose cookie opens no claim by the reference in its address (none
     * sent, expired, forged, revoked, another claim's) is answered (404) and counted against the client.
     */
    async refuseUnknownClaim(client: string, reference: string, session: string | undefined): Promise<LaterPhotosResult | undefined> {
      if ((await claimOfSession(await db(), 'status', reference, session, now())) !== null) return undefined;
      return refuse(client, refused(404, 'not-found'));
    },
    /** A multipart body's photos, read once (the photo intake's). */
    readUpload: intake.readUpload,
    /** A body that could not be read as photos (for a claim whose cookie was checked): answered, and counted against the client. */
    refuseReading(client: string, reading: ReadingRefusal, reference: string): LaterPhotosResult {
      const { status, outcome } = READING_OUTCOMES[reading.reason];
      return refuse(client, refused(status, outcome, { reference: reference.toUpperCase() }));
    },
    add,
  };
}

export type LaterPhotos = ReturnType<typeof createLaterPhotos>;
