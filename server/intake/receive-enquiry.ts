import 'server-only';
import type { Client } from '@libsql/client';
import { CONTACT_RESPONSES, photoText } from '@/content/contact';
import type { ResponseReason } from '@/lib/contact-response.mjs';
import { HONEYPOT_FIELD, PHOTO_FIELD, isUrgent } from '@/lib/contact-fields';
import { parseContact, type ContactSubmission } from '@/lib/contact-schema';
import { getDb } from '@/server/base/db';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/intake/enquiry-settings';
import { verifyRecaptcha, type Verification } from '@/server/intake/recaptcha';
import { KEPT_ON_PHONE, SENT_WITHOUT_SCRIPT } from '@/server/ledger/sent-without-script';
import { storeEnquiry, type NewEnquiry, type PhotosDroppedReason, type StoreResult } from '@/server/ledger/enquiry-store';
import type { ReadingRefusal } from '@/server/intake/multipart-enquiry';
import {
  createPhotoIntake,
  photoIntake,
  type PhotoIntake,
  type PhotoIntakeDeps,
  type PhotosDropped,
  type ReceivedPhoto,
} from '@/server/intake/photo-intake';
import type { PhotoToStore } from '@/server/ledger/photo-store';
import { signedInOrganisation } from '@/server/portfolio/signed-in-sender';

/** An enquiry as its way in parsed it, once: the form's fields by name, the photos, who sent it and how. */
export type EnquirySubmission = {
  fields: object;
  photos: readonly ReceivedPhoto[];
  /** The client's address (server/edge/client-address.mjs). */
  client: string;
  /** The page's own form posted natively, before or without its script: stored unverified, never acknowledged. */
  sentWithoutScript: boolean;
  /**
   * Sent by the site's service worker, which kept it on a phone with no signal: no reCAPTCHA token can be
   * made there, so where bot protection is on it is stored unverified (and so not acknowledged).
   */
  keptOnPhone?: boolean;
  /** The portfolio cookie the request carried: an instruction from a signed-in person is proven theirs. */
  portfolioSession?: string;
};

export type FieldError = { path: string; msg: string };

/**
 * What became of a submission. `stored`: it has its reference (every stored enquiry does, spam too, so
 * the verdict is not revealed by its absence). `refused`: for what was sent, with the field errors.
 * `busy`: nothing wrong with it, try again after `retryAfterSeconds`.
 */
export type EnquiryResult =
  | { kind: 'stored'; reference?: string; urgent: boolean; photosNotKept: number }
  | { kind: 'refused'; reason: ResponseReason; status: number; message: string; errors?: FieldError[] }
  | { kind: 'busy'; reason: 'rate-limited' | 'unavailable'; status: 429 | 503; message: string; retryAfterSeconds: number };

/** A result that is not a stored enquiry: refused or busy. */
export type NotStored = Exclude<EnquiryResult, { kind: 'stored' }>;

/**
 * A refusal decided by one of the steps below or by a way in while it read the body. `counted`: it
 * draws on the client's budget of refused submissions (a reCAPTCHA refusal does not: the
 * accepted-submission budget was charged already).
 */
export class Refusal {
  constructor(
    readonly reason: ResponseReason,
    readonly status: number,
    readonly message: string,
    readonly errors?: FieldError[],
    readonly counted = true,
  ) {}
}

export const photoRefusal = (status: 413 | 422, message: string) =>
  new Refusal(status === 413 ? 'too-large' : 'invalid', status, status === 413 ? message : CONTACT_RESPONSES.invalid, [
    { path: PHOTO_FIELD, msg: message },
  ]);

export function readingRefusal({ reason, file = '' }: ReadingRefusal): Refusal {
  switch (reason) {
    case 'photo-too-large':
      return photoRefusal(413, photoText.tooLarge(file));
    case 'too-many-photos':
      return photoRefusal(413, photoText.tooMany);
    case 'body-too-large':
      return photoRefusal(413, CONTACT_RESPONSES.bodyTooLarge);
    case 'text-too-large':
      return new Refusal('too-large', 413, CONTACT_RESPONSES.tooLarge);
    case 'malformed':
      return new Refusal('malformed', 400, CONTACT_RESPONSES.malformed);
  }
}

export type EnquiryReceiverDeps = PhotoIntakeDeps & {
  verify?: typeof verifyRecaptcha;
  /** The photo intake whose budgets it draws on (default: one of its own, from these deps). */
  intake?: PhotoIntake;
};

type Verdict = Pick<NewEnquiry, 'disposition' | 'verification' | 'score' | 'detail'>;

/** The fields against the one contact schema. */
function parseEnquiry(fields: object): ContactSubmission | Refusal {
  const parsed = parseContact(fields);
  return parsed.success ? parsed.data : new Refusal('invalid', 422, CONTACT_RESPONSES.invalid, parsed.errors);
}

/** What the enquiry is: spam by the honeypot, or by reCAPTCHA's verdict when it is configured. */
async function classifyEnquiry(
  submission: ContactSubmission,
  config: EnquiryConfig,
  verify: typeof verifyRecaptcha,
  { sentWithoutScript, keptOnPhone = false }: Pick<EnquirySubmission, 'sentWithoutScript' | 'keptOnPhone'>,
): Promise<Verdict | Refusal> {
  if (submission[HONEYPOT_FIELD]) return { disposition: 'spam', verification: 'honeypot' };
  // Bot protection runs in the page's JavaScript: a form posted before or without it cannot be checked.
  if (sentWithoutScript) return { disposition: 'accepted', verification: 'unverified', detail: SENT_WITHOUT_SCRIPT };
  if (!config.recaptcha) return { disposition: 'accepted', verification: 'not-configured' };
  if (keptOnPhone && !submission.recaptchaToken) return { disposition: 'accepted', verification: 'unverified', detail: KEPT_ON_PHONE };
  if (!submission.recaptchaToken) return new Refusal('captcha', 400, CONTACT_RESPONSES.missingToken, undefined, false);
  let verification: Verification;
  try {
    verification = await verify(submission.recaptchaToken, config.recaptcha);
  } catch (error) {
    verification = { kind: 'unreachable', detail: String(error) };
  }
  if (verification.kind === 'invalid') return new Refusal('captcha', 400, CONTACT_RESPONSES.invalidToken, undefined, false);
  return verdictOf(verification);
}

function verdictOf(verification: Exclude<Verification, { kind: 'invalid' }>): Verdict {
  switch (verification.kind) {
    case 'verified':
      return { disposition: 'accepted', verification: 'verified', score: verification.score };
    case 'low-score':
      return { disposition: 'suspect', verification: 'low-score', score: verification.score };
    case 'unreachable':
      return { disposition: 'accepted', verification: 'unverified', detail: verification.detail.slice(0, 500) };
  }
}

/**
 * The one place an enquiry is received, whichever way it came in (the route for the scripted form, the
 * page's action for the form posted without script): the fields against the one schema, then the
 * photo intake (server/intake/photo-intake.ts: the client's budgets, the photos checked unread, the
 * budget charged) with this receiver's own judgement, the verdict, and its store, the enquiry with its
 * notification. Anything a visitor can send is stored or refused; only a database outage is `busy`.
 */
export function createEnquiryReceiver(deps: EnquiryReceiverDeps = {}) {
  const config = deps.config ?? loadEnquiryConfig();
  const intake = deps.intake ?? createPhotoIntake(deps);
  const db = deps.db ?? getDb;
  const verify = deps.verify ?? verifyRecaptcha;
  const now = deps.now ?? Date.now;

  function refuse(client: string, refusal: Refusal): NotStored {
    if (refusal.counted) intake.countRefused(client);
    return answer(refusal);
  }

  async function receive({
    fields,
    photos,
    client,
    sentWithoutScript,
    keptOnPhone,
    portfolioSession,
  }: EnquirySubmission): Promise<EnquiryResult> {
    const submission = parseEnquiry(fields);
    if (submission instanceof Refusal) return refuse(client, submission);

    return intake.take<EnquiryResult, Verdict>({
      client,
      photos,
      answers: { refused: (message) => answer(photoRefusal(422, message)), tooMany },
      async assess() {
        const verdict = await classifyEnquiry(submission, config, verify, { sentWithoutScript, keptOnPhone });
        if (verdict instanceof Refusal) return { stop: refuse(client, verdict) };
        return { go: verdict, keepPhotos: verdict.disposition === 'accepted' };
      },
      store: (processed, taken) =>
        storeReceived({ submission, client, sentWithoutScript, portfolioSession }, processed, taken, {
          config,
          db,
          now,
          photosRoot: deps.photosRoot,
        }),
    });
  }

  return {
    /** Before the body is read: a client over either budget costs no parsing. */
    turnAway: (client: string) => intake.turnAway(client, tooMany),
    /** A body its way in could not read as an enquiry: answered, and counted against the client. */
    refuse,
    /** Whether photos can be kept now (a way in reads them to nowhere when not). */
    photosCanBeKept: intake.photosCanBeKept,
    /** A multipart body's fields and photos, read once (the photo intake's). */
    readUpload: intake.readUpload,
    /** Where uploads wait while they are read (the photos a kept claim sends ahead wait beside them). */
    incomingDir: intake.incomingDir,
    receive,
  };
}

const tooMany = (retryAfterSeconds: number): NotStored => ({
  kind: 'busy',
  reason: 'rate-limited',
  status: 429,
  message: CONTACT_RESPONSES.tooMany,
  retryAfterSeconds,
});

const answer = ({ reason, status, message, errors }: Refusal): NotStored => ({
  kind: 'refused',
  reason,
  status,
  message,
  ...(errors ? { errors } : {}),
});

/** What storing an enquiry needs besides the enquiry: the settings, the database, the clock, the photos' folder. */
type StoreParts = { config: EnquiryConfig; db: () => Promise<Client>; now: () => number; photosRoot?: string };

/**
 * An enquiry stored with its verdict and its photos (none when they were not kept): its response, and
 * whether delivery has a notification to send. A database that cannot store it: busy (503).
 */
async function storeReceived(
  {
    submission,
    client,
    sentWithoutScript,
    portfolioSession,
  }: { submission: ContactSubmission; client: string; sentWithoutScript: boolean; portfolioSession?: string },
  processed: PhotoToStore[],
  { assessed: verdict, sent, dropped }: { assessed: Verdict; sent: number; dropped: PhotosDropped },
  { config, db, now, photosRoot }: StoreParts,
): Promise<{ answer: EnquiryResult; wake: boolean }> {
  const dropReason: PhotosDroppedReason | null =
    verdict.disposition !== 'accepted' ? verdict.disposition : dropped === 'no-room' ? 'storage-full' : null;
  let stored: StoreResult;
  try {
    const database = await db();
    const at = now();
    stored = await storeEnquiry(
      database,
      {
        ...submission,
        ...verdict,
        clientAddress: client,
        enquiryKey: submission.enquiryKey || null,
        acknowledge: acknowledgementOf(config, verdict, sentWithoutScript),
        tellCrm: config.tellCrm,
        photos: processed,
        photosDropped: dropReason && sent > 0 ? { count: sent, reason: dropReason } : undefined,
        signedInOrganisation: await signedInOrganisation(database, portfolioSession, at),
      },
      at,
      { photosRoot },
    );
  } catch (error) {
    console.error('[contact] Could not store an enquiry:', error instanceof Error ? error.message : error);
    const message = CONTACT_RESPONSES.unavailable;
    return { answer: { kind: 'busy', reason: 'unavailable', status: 503, message, retryAfterSeconds: 60 }, wake: false };
  }
  return {
    answer: {
      kind: 'stored',
      ...(stored.reference ? { reference: stored.reference } : {}),
      // From the visitor's own answers, whatever the verdict: the page offers the emergency line.
      urgent: isUrgent(submission),
      // Only a full storage is told, and only to an accepted enquiry: nothing reveals a verdict.
      photosNotKept: dropReason === 'storage-full' ? sent : 0,
    },
    wake: verdict.disposition === 'accepted',
  };
}

/**
 * With reCAPTCHA on, only a verified sender is acknowledged (a bot cannot use the site to mail others),
 * so only verified enquiries spend the site's hourly budget; each client gets a share of it (decision 0011).
 */
function acknowledgementOf(config: EnquiryConfig, verdict: Verdict, sentWithoutScript: boolean): NewEnquiry['acknowledge'] {
  return config.acknowledge &&
    verdict.disposition === 'accepted' &&
    !sentWithoutScript &&
    (!config.recaptcha || verdict.verification === 'verified')
    ? { perHour: config.acknowledgementsPerHour, perClient: config.acknowledgementsPerClientPerHour }
    : false;
}

export type EnquiryReceiver = ReturnType<typeof createEnquiryReceiver>;

let shared: EnquiryReceiver | undefined;

/** The process's receiver (its budgets, the photo intake's, count every way in), created on first use so configuration is read at run time. */
export function enquiryReceiver(): EnquiryReceiver {
  shared ??= createEnquiryReceiver({ intake: photoIntake() });
  return shared;
}
