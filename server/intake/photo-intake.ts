import 'server-only';
import type { Client } from '@libsql/client';
import { photoText } from '@/content/contact';
import { REFUSED_SUBMISSION_LIMIT } from '@/lib/enquiry-rules.mjs';
import { getDb } from '@/server/base/db';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/intake/enquiry-settings';
import { readMultipartEnquiry, type ReadingRefusal } from '@/server/intake/multipart-enquiry';
import { outboxWritten } from '@/server/ledger/outbox';
import { identifyPhoto, inspectPhoto, isAcceptedFormat, reencodePhoto, UnreadablePhoto } from '@/server/intake/photo-processing';
import { incomingDirOf, photosRoot, type PhotoToStore } from '@/server/ledger/photo-store';
import { photoStorageState } from '@/server/ledger/photo-storage';
import { rateLimitKey } from '@/server/edge/client-address.mjs';
import { createRateLimiter, type RateLimiter } from '@/server/base/rate-limiter';

/** A photo as it arrived: its size, its first bytes, and where its bytes are (absent: it will not be kept). */
export type ReceivedPhoto = { name: string; bytes: number; head: Uint8Array; source?: string | Buffer };

export type PhotoIntakeDeps = {
  config?: EnquiryConfig;
  /** The client's budget of accepted posts. */
  limiter?: RateLimiter;
  /** The client's budget of refused posts. */
  refusedLimiter?: RateLimiter;
  db?: () => Promise<Client>;
  /** Wakes delivery once something is stored for it. */
  wake?: () => void;
  now?: () => number;
  /** Where photos are stored (default ENQUIRY_PHOTOS_DIR). */
  photosRoot?: string;
  /** The decoder and re-encoder (tests count its calls). */
  reencode?: typeof reencodePhoto;
};

/**
 * How a way in answers, in its own words, where the intake stops. Every answer but `tooMany` is
 * counted against the client's budget of refused posts.
 */
export type PhotoAnswers<A> = {
  /** A photo refused for what it is (its first bytes, its header, its pixels, its decoding): the message names it. */
  refused: (message: string) => A;
  /** Over the client's budget of accepted posts. */
  tooMany: (retryAfterSeconds: number) => A;
  /** No room to keep photos. Absent: the post goes on and its photos are not kept. */
  noRoom?: () => A;
};

/** Why no photo was kept: the caller's judgement did not want them, or the storage had no room. */
export type PhotosDropped = 'unwanted' | 'no-room' | null;

export type PhotoPost<A, V> = {
  client: string;
  /** As read: an empty file input's empty part is left out. */
  photos: readonly ReceivedPhoto[];
  answers: PhotoAnswers<A>;
  /**
   * After the client's budget is charged and before any photo is decoded: the caller's own judgement
   * (an enquiry's verdict), which stops with an answer or goes on with a value and says whether the
   * photos are wanted.
   */
  assess?: () => Promise<{ stop: A } | { go: V; keepPhotos: boolean }>;
  /**
   * Stores the post with its photos re-encoded (none when they are not kept): its answer, and whether
   * delivery has something new to send.
   */
  store: (photos: PhotoToStore[], taken: { assessed: V; sent: number; dropped: PhotosDropped }) => Promise<{ answer: A; wake: boolean }>;
};

type CheckedPhoto = { photo: ReceivedPhoto; pixelBudget: number | undefined };
type PhotoRefused = { refused: string };

/**
 * Each photo judged by its first bytes and its header, before any decoding: a PDF named .jpg, a GIF
 * or an image that declares more pixels than its budget is refused here. Returns each photo with its
 * pixel budget (none read when they cannot be kept).
 */
export async function checkPhotos(photos: readonly ReceivedPhoto[]): Promise<CheckedPhoto[] | PhotoRefused> {
  const checked: CheckedPhoto[] = [];
  for (const photo of photos) {
    const format = identifyPhoto(photo.head);
    if (format === 'heic') return { refused: photoText.heic(photo.name) };
    if (!isAcceptedFormat(format)) return { refused: photoText.notAPhoto(photo.name) };
    if (photo.source === undefined) {
      checked.push({ photo, pixelBudget: undefined });
      continue;
    }
    const inspected = await inspectPhoto(photo.source, format);
    if (!inspected.ok)
      return {
        refused: inspected.refusal === 'too-many-pixels' ? photoText.tooManyPixels(photo.name) : photoText.unreadable(photo.name),
      };
    checked.push({ photo, pixelBudget: inspected.header.pixelBudget });
  }
  return checked;
}

/** Photos re-encoded, their metadata gone. */
async function reencodePhotos(photos: readonly CheckedPhoto[], reencode: typeof reencodePhoto): Promise<PhotoToStore[] | PhotoRefused> {
  const processed: PhotoToStore[] = [];
  for (const { photo, pixelBudget } of photos) {
    if (photo.source === undefined) continue;
    try {
      processed.push({ ...(await reencode(photo.source, pixelBudget)), originalName: photo.name });
    } catch (error) {
      if (error instanceof UnreadablePhoto) return { refused: photoText.unreadable(photo.name) };
      throw error;
    }
  }
  return processed;
}

/** What taking a post draws on: the client's accepted budget, the count of refused posts, the re-encoder, the wake-up. */
type TakeParts = {
  limiter: RateLimiter;
  countRefused: (client: string) => unknown;
  reencode: typeof reencodePhoto;
  wake: () => void;
};

/**
 * A post's photos taken in, every cost bounded before it is paid: the photos judged unread, the
 * storage's room, the client's budget charged, the caller's judgement, then the decoding, the
 * caller's store and the wake-up.
 */
async function takePhotos<A, V>(
  { client, photos, answers, assess, store }: PhotoPost<A, V>,
  { limiter, countRefused, reencode, wake }: TakeParts,
): Promise<A> {
  const refuse = (answer: A) => {
    countRefused(client);
    return answer;
  };
  const checked = await checkPhotos(photos.filter((photo) => photo.bytes > 0));
  if ('refused' in checked) return refuse(answers.refused(checked.refused));
  const roomHad = checked.every(({ photo }) => photo.source !== undefined);
  if (!roomHad && answers.noRoom) return refuse(answers.noRoom());

  // Charged before the caller's judgement, so a client that keeps failing it spends its budget like
  // any other and cannot make the site ask a paid API or decode photos without limit.
  const decision = limiter.hit(rateLimitKey(client));
  if (!decision.allowed) return answers.tooMany(decision.retryAfterSeconds);
  const judged = assess ? await assess() : { go: undefined as V, keepPhotos: true };
  if ('stop' in judged) return judged.stop;

  const dropped: PhotosDropped = !judged.keepPhotos ? 'unwanted' : roomHad ? null : 'no-room';
  const processed = dropped ? [] : await reencodePhotos(checked, reencode);
  if ('refused' in processed) return refuse(answers.refused(processed.refused));
  const stored = await store(processed, { assessed: judged.go, sent: checked.length, dropped });
  if (stored.wake) wake();
  return stored.answer;
}

/**
 * The one intake of photos, whichever way they come (the enquiry form, scripted or not, and photos
 * added later to a claim): the client's two budgets (accepted and refused posts) looked at before a
 * body is read; the upload streamed to the incoming folder, or read to nowhere when the storage has
 * no room; each photo judged by its first bytes and its declared pixels before anything is decoded;
 * the accepted budget charged before any decoding; re-encoded without metadata; stored by the caller;
 * delivery woken. A way in brings only what differs: what the photos attach to, and its answers.
 */
export function createPhotoIntake(deps: PhotoIntakeDeps = {}) {
  const config = deps.config ?? loadEnquiryConfig();
  const limiter = deps.limiter ?? createRateLimiter({ limit: config.rateLimit, windowMs: config.rateWindowMs, now: deps.now });
  const refusedLimiter = deps.refusedLimiter ?? createRateLimiter({ ...REFUSED_SUBMISSION_LIMIT, now: deps.now });
  const db = deps.db ?? getDb;
  const wake = deps.wake ?? outboxWritten;
  const reencode = deps.reencode ?? reencodePhoto;
  const root = () => deps.photosRoot ?? photosRoot();
  const storageLimits = { maxBytes: config.photosMaxBytes, minFreeBytes: config.photosMinFreeBytes };

  const countRefused = (client: string) => refusedLimiter.hit(rateLimitKey(client));

  /** Whether photos can be kept now (a way in reads them to nowhere when not); when the database cannot say, the store answers. */
  async function photosCanBeKept(): Promise<boolean> {
    try {
      return (await photoStorageState(await db(), root(), storageLimits)).state === 'ok';
    } catch {
      return true;
    }
  }

  /** Where a way in streams photos while they are checked (cleared at start-up). */
  const incomingDir = () => incomingDirOf(root());

  return {
    /** Before the body is read: a client over either budget costs no parsing. */
    turnAway<A>(client: string, tooMany: (retryAfterSeconds: number) => A): A | undefined {
      for (const budget of [limiter, refusedLimiter]) {
        const early = budget.peek(rateLimitKey(client));
        if (!early.allowed) return tooMany(early.retryAfterSeconds);
      }
      return undefined;
    },
    /** A post refused for anything else its way in judges: counted against the client. */
    countRefused,
    photosCanBeKept,
    incomingDir,

    /**
     * A multipart body read once as it streams in (server/intake/multipart-enquiry.ts), its photos
     * written to the incoming folder only while the storage has room, handed to `receive`, and cleared
     * after, whatever `receive` did. A body that cannot be read is answered by `refuse`.
     */
    async readUpload<A>(
      request: Request,
      refuse: (refusal: ReadingRefusal) => A,
      receive: (upload: { fields: Record<string, string>; photos: ReceivedPhoto[] }) => Promise<A>,
    ): Promise<A> {
      const keep = await photosCanBeKept();
      const read = await readMultipartEnquiry(request, { incomingDir: incomingDir(), keepFiles: keep });
      if (!read.ok) return refuse(read.refusal);
      const upload = read.value;
      try {
        const photos = upload.files.map(({ name, bytes, head, path }) => ({ name, bytes, head, ...(keep ? { source: path } : {}) }));
        return await receive({ fields: upload.fields, photos });
      } finally {
        await upload.cleanup();
      }
    },

    /** A post's photos taken in, every cost bounded before it is paid (takePhotos). */
    take<A, V = undefined>(post: PhotoPost<A, V>): Promise<A> {
      return takePhotos(post, { limiter, countRefused, reencode, wake });
    },
  };
}

export type PhotoIntake = ReturnType<typeof createPhotoIntake>;

let shared: PhotoIntake | undefined;

/** The process's photo intake: its budgets count every way photos come in. Made on first use, so configuration is read at run time. */
export function photoIntake(): PhotoIntake {
  shared ??= createPhotoIntake();
  return shared;
}
