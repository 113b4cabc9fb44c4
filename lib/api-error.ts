// Its own module so that code which only recognises a failed call (the global error handlers, in the
// layout of every page) does not ship the request client with it.

export type ApiErrorKind = 'server' | 'auth' | 'client' | 'network';

/** A failed call: a non-OK HTTP status, or no answer at all (offline, aborted, timed out). */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  /** The parsed JSON body of a non-OK answer, when it had one. */
  readonly body: unknown;
  /** An answer's Retry-After, in seconds, when it had one (503 while busy, 429). */
  readonly retryAfterSeconds: number | undefined;
  /** No answer because the caller itself aborted the request (the visitor pressed Cancel, or left). */
  readonly cancelled: boolean;

  constructor(
    message: string,
    options: { kind: ApiErrorKind; status?: number; body?: unknown; cause?: unknown; retryAfterSeconds?: number; cancelled?: boolean },
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.kind = options.kind;
    this.status = options.status;
    this.body = options.body;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.cancelled = options.cancelled ?? false;
  }
}
