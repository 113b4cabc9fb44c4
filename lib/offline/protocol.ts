// What the pages and the service worker say to each other about claims kept on the phone, and the names
// both use. The worker (lib/offline/service-worker.ts) keeps the claims; a page only sends it messages.

/** The worker's script: a file of its own (never inline, never a module, so Firefox ESR runs it), for every page. */
export const SERVICE_WORKER_URL = '/service-worker.js';
/** The built worker's name in the build's folder (scripts/site/service-worker-build.ts writes it, its route reads it). */
export const SERVICE_WORKER_FILE = 'service-worker.js';
/** The Background Sync registration that sends kept claims with no page open (Chromium). */
export const SYNC_TAG = 'send-claims';
/** Sent with a kept claim: no reCAPTCHA token can be made in a worker, so the server stores it unverified. */
export const KEPT_CLAIM_HEADER = 'X-Enquiry-Sent-From';
export const KEPT_CLAIM_HEADER_VALUE = 'phone-queue';
/**
 * A claim with more than one photo is sent one photo per request ahead of it (the multipart field
 * STAGE_PHOTO_FIELD carries the claim's key, PHOTO_FIELD the one photo; the answer's `staged` is the
 * photo's id), then the claim itself names them (STAGED_PHOTOS_FIELD: their ids, comma-separated), so no
 * request on a weak signal carries them all and the claim still arrives whole.
 */
export const STAGE_PHOTO_FIELD = 'photoAheadOf';
export const STAGED_PHOTOS_FIELD = 'photosSentAhead';

/** The pages the worker keeps for a visitor with no signal, besides the assets they need. */
export const OFFLINE_PAGE = '/offline';
export const PAGES_KEPT_OFFLINE = ['/contact', '/insurers', OFFLINE_PAGE] as const;

/**
 * How long a kept claim waits on the phone for a signal: older, it is deleted unsent and the next page
 * says so. The site remembers a claim's key as long (server/ledger/enquiry-store.ts), so a kept claim
 * whose answer was lost is never stored twice however late it is sent again.
 */
export const KEPT_CLAIM_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
/** How long a refused kept claim's words stay on the phone for its sender to correct (never its photos). */
export const REFUSED_CLAIM_KEPT_MS = 24 * 60 * 60_000;

export type KeptPhoto = { name: string; type: string; blob: Blob };

/** A claim as the form would have sent it (its fields with its enquiry key, its photos already shrunk). */
export type KeptClaim = {
  enquiryKey: string;
  /** The ids the site gave the photos sent ahead so far, by the photo's place (null: not yet sent). */
  staged?: (string | null)[];
  endpoint: string;
  fields: Record<string, string>;
  photos: KeptPhoto[];
  urgent: boolean;
  keptAt: number;
};

/**
 * What became of a kept claim, kept until a page has shown it: sent; refused (its words, without its
 * photos, for REFUSED_CLAIM_KEPT_MS); or deleted unsent after KEPT_CLAIM_MAX_AGE_MS (`keptAt`: when it was kept).
 */
export type ClaimOutcome =
  | { kind: 'sent'; enquiryKey: string; reference?: string; urgent: boolean; at: number }
  | {
      kind: 'refused';
      enquiryKey: string;
      message: string;
      fieldErrors: Record<string, string>;
      claim: KeptClaim;
      at: number;
      /** Past REFUSED_CLAIM_KEPT_MS with no page shown it: its words deleted, the notice kept. */
      wordsDropped?: boolean;
    }
  | { kind: 'expired'; enquiryKey: string; keptAt: number; at: number };

/** The outcomes as they may stand at `now`: a refused claim's words only within REFUSED_CLAIM_KEPT_MS, its notice until shown. */
export const outcomesToShow = (outcomes: readonly ClaimOutcome[], now: number): ClaimOutcome[] =>
  outcomes.map((outcome) =>
    outcome.kind === 'refused' && !outcome.wordsDropped && now - outcome.at >= REFUSED_CLAIM_KEPT_MS
      ? { ...outcome, claim: { ...outcome.claim, fields: {}, photos: [] }, fieldErrors: {}, wordsDropped: true }
      : outcome,
  );

/** The kept claims too old to send at `now`. */
export const tooOldToSend = (claims: readonly KeptClaim[], now: number) =>
  claims.filter((claim) => now - claim.keptAt >= KEPT_CLAIM_MAX_AGE_MS);

export type PageMessage = { type: 'keep'; claim: KeptClaim } | { type: 'visit' } | { type: 'seen'; keys: string[] };

export type KeepResult = 'kept' | 'quota' | 'unavailable';

export type WorkerMessage =
  | { type: 'keep-result'; result: KeepResult }
  | { type: 'outcomes'; outcomes: ClaimOutcome[] }
  /** After each round of sending: how many kept claims still wait (0: none). */
  | { type: 'waiting'; left: number };

const WORKER_MESSAGE_TYPES: readonly unknown[] = ['keep-result', 'outcomes', 'waiting'];

export const isWorkerMessage = (data: unknown): data is WorkerMessage =>
  data !== null && typeof data === 'object' && WORKER_MESSAGE_TYPES.includes((data as { type?: unknown }).type);
