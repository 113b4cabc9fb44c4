import 'server-only';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { CONTACT_RESPONSES, photoText } from '@/content/contact';
import { PHOTO_MAX_COUNT, STAGED_PHOTOS } from '@/lib/enquiry-rules.mjs';
import { isEnquiryKey, ENQUIRY_KEY_FIELD } from '@/lib/enquiry-key';
import { STAGE_PHOTO_FIELD, STAGED_PHOTOS_FIELD } from '@/lib/offline/protocol';
import { getDb } from '@/server/base/db';
import { createRateLimiter, type RateLimiter } from '@/server/base/rate-limiter';
import { rateLimitKey } from '@/server/edge/client-address.mjs';
import { enquiryKeyStored } from '@/server/ledger/enquiry-reads';
import { checkPhotos, type ReceivedPhoto } from '@/server/intake/photo-intake';
import { photoRefusal, Refusal, type EnquiryReceiver, type EnquiryResult, type NotStored } from '@/server/intake/receive-enquiry';
import { createStagedPhotos, isStagedPhotoId, type StagedPhotos } from '@/server/intake/staged-photos';

/** A photo kept for the claim that follows, by its id. */
export type PhotoSentAhead = { kind: 'staged'; id: string };

export type KeptClaimPhotosDeps = {
  limiter?: RateLimiter;
  db?: () => Promise<Client>;
  now?: () => number;
  staged?: StagedPhotos;
};

/**
 * The two requests of a claim a phone kept with no signal that only its service worker makes
 * (lib/offline/service-worker.ts): a photo sent ahead of its claim, and the claim naming the photos
 * it sent ahead. Both come only with the kept-claim header (the caller checks); everything else about
 * them is the enquiry receiver's.
 */
export function createKeptClaimPhotos(receiver: EnquiryReceiver, deps: KeptClaimPhotosDeps = {}) {
  const now = deps.now ?? Date.now;
  const limiter = deps.limiter ?? createRateLimiter({ limit: STAGED_PHOTOS.perClientPerHour, windowMs: 60 * 60_000, now });
  const staged = deps.staged ?? createStagedPhotos({ folder: () => path.join(receiver.incomingDir(), 'staged'), now });
  const db = deps.db ?? getDb;

  const refused = (client: string, refusal: Refusal) => receiver.refuse(client, refusal);

  /** One photo sent ahead: checked unread like any photo, charged to the client, kept under the claim's key. */
  async function stage(
    client: string,
    fields: Record<string, string>,
    photos: readonly ReceivedPhoto[],
  ): Promise<PhotoSentAhead | NotStored> {
    const key = fields[STAGE_PHOTO_FIELD] ?? '';
    const [photo, ...others] = photos.filter((received) => received.bytes > 0);
    if (!isEnquiryKey(key) || !photo || others.length > 0 || Object.keys(fields).length > 1) {
      return refused(client, new Refusal('malformed', 400, CONTACT_RESPONSES.photoAhead));
    }
    if (photo.source === undefined || typeof photo.source !== 'string') {
      return { kind: 'busy', reason: 'unavailable', status: 503, message: CONTACT_RESPONSES.unavailable, retryAfterSeconds: 60 };
    }
    const checked = await checkPhotos([photo]);
    if ('refused' in checked) return refused(client, photoRefusal(422, checked.refused));
    const decision = limiter.hit(rateLimitKey(client));
    if (!decision.allowed) {
      return {
        kind: 'busy',
        reason: 'rate-limited',
        status: 429,
        message: CONTACT_RESPONSES.tooMany,
        retryAfterSeconds: decision.retryAfterSeconds,
      };
    }
    const result = await staged.stage(key, { name: photo.name, path: photo.source, bytes: photo.bytes }, rateLimitKey(client));
    if (result.kind === 'too-many') return refused(client, photoRefusal(413, photoText.tooMany));
    // No room for it (this client's share, or everyone's): the phone sends the claim whole instead of
    // waiting, its photos in its own body through the upload slots like any claim's.
    if (result.kind === 'no-room') return { kind: 'refused', reason: 'send-whole', status: 507, message: CONTACT_RESPONSES.photosBusy };
    return { kind: 'staged', id: result.id };
  }

  /**
   * The claim naming the photos it sent ahead: received with them, as if they had come in its own body.
   * Photos no longer kept are asked for again, unless a try of this claim was stored already (its
   * answer lost on the way back): then the receiver finds that enquiry by its key and answers with it.
   */
  async function receiveWithStaged(client: string, fields: Record<string, unknown>): Promise<EnquiryResult> {
    const { [STAGED_PHOTOS_FIELD]: named, ...claim } = fields;
    const key = claim[ENQUIRY_KEY_FIELD];
    const ids = typeof named === 'string' ? named.split(',') : [];
    if (typeof key !== 'string' || !isEnquiryKey(key) || ids.length === 0 || ids.length > PHOTO_MAX_COUNT || !ids.every(isStagedPhotoId)) {
      return refused(client, new Refusal('malformed', 400, CONTACT_RESPONSES.photoAhead));
    }
    const taken = await staged.take(key, ids);
    let photos: ReceivedPhoto[] = [];
    if ('missing' in taken) {
      const storedAlready = await enquiryKeyStored(await db(), key, now() - STAGED_PHOTOS.lifetimeMs).catch(() => false);
      if (!storedAlready) return { kind: 'refused', reason: 'photos-missing', status: 409, message: CONTACT_RESPONSES.photosMissing };
    } else {
      photos = taken.photos;
    }
    const result = await receiver.receive({ fields: claim, photos, client, sentWithoutScript: false, keptOnPhone: true });
    if (result.kind === 'stored') await staged.discard(key).catch(() => undefined);
    return result;
  }

  return { stage, receiveWithStaged };
}

export type KeptClaimPhotos = ReturnType<typeof createKeptClaimPhotos>;
