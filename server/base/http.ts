import 'server-only';
import { mediaTypeOf } from './media-type.mjs';

/**
 * What every JSON route handler of the site answers: a status, a body in the CRM's shape
 * (`{ success, message, … }`) and any extra headers. Routes turn it into a Response with `toResponse`.
 */
export type HandlerResult = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

export function failure(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): HandlerResult {
  return { status, body: { success: false, message, ...extra }, headers };
}

export function toResponse({ status, body, headers }: HandlerResult): Response {
  return Response.json(body, { status, headers });
}

class BodyTooLarge extends Error {}

/**
 * A request's (or a fetched response's) body as UTF-8 text, refusing (BodyTooLarge) as soon as it
 * passes maxBytes, before buffering more.
 */
export async function readCappedText(request: Pick<Request, 'headers' | 'body'>, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

type JsonBody =
  | { ok: true; value: unknown }
  /** 415: not application/json; 413: larger than allowed; 400: not UTF-8 or not JSON. */
  | { ok: false; status: 415 | 413 | 400 };

/** The request's media type, lower-case and without parameters (`multipart/form-data`): server/base/media-type.mjs. */
export const requestMediaType = (request: Request) => mediaTypeOf(request.headers.get('content-type'));

/** Reads a JSON request body of at most maxBytes: the value, or the status that refuses it. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  if (requestMediaType(request) !== 'application/json') return { ok: false, status: 415 };
  let text: string;
  try {
    text = await readCappedText(request, maxBytes);
  } catch (error) {
    return { ok: false, status: error instanceof BodyTooLarge ? 413 : 400 };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400 };
  }
}
