import 'server-only';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { plainText } from '@/lib/plain-text';
import { PHOTO_FIELD } from '@/lib/contact-fields';
import {
  ENQUIRY_TEXT_MAX_BYTES,
  LARGEST_BODY_BYTES,
  MULTIPART_MAX_FIELDS,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_COUNT,
} from '@/lib/enquiry-rules.mjs';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@/server/base/private-files';

/** Why a body could not be read as an enquiry, as each way in finds it (the limits of lib/enquiry-rules.mjs). */
export type ReadingRefusal = {
  reason: 'body-too-large' | 'photo-too-large' | 'too-many-photos' | 'text-too-large' | 'malformed';
  file?: string;
};

/** A photo as it arrived: where it waits on disk, its size and the first bytes that identify it. */
export type UploadedFile = { name: string; path: string; bytes: number; head: Buffer };

export type MultipartEnquiry = { fields: Record<string, string>; files: UploadedFile[]; cleanup: () => Promise<void> };

type MultipartOptions = {
  /** The folder uploads wait in while they are checked (ENQUIRY_PHOTOS_DIR/.incoming), cleared at start-up. */
  incomingDir: string;
  /** False: files are read, counted and identified, but never written (photos that will not be kept). */
  keepFiles?: boolean;
};

const HEAD_BYTES = 32;

class Refused extends Error {
  constructor(readonly refusal: ReadingRefusal) {
    super(refusal.reason);
  }
}

/** A file name fit to show back to the visitor and to log: its last path segment, printable, at most 100 characters. */
export function displayName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const printable = plainText(base, 'drop').trim();
  return (printable || 'photo').slice(0, 100);
}

/**
 * Reads a multipart/form-data enquiry as it streams in: text fields into memory (ENQUIRY_TEXT_MAX_BYTES
 * together), each file of the `photos` field into a temporary folder. Refuses as soon as the declared or
 * received body passes LARGEST_BODY_BYTES, a file passes PHOTO_MAX_BYTES, or a seventh file starts,
 * without reading further. (Its pace is kept by the upload gate of server.mjs, which cuts a body off
 * below its minimum rate.) The caller must call `cleanup` when done with the files.
 */
export async function readMultipartEnquiry(
  request: Request,
  options: MultipartOptions,
): Promise<{ ok: true; value: MultipartEnquiry } | { ok: false; refusal: ReadingRefusal }> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > LARGEST_BODY_BYTES) return { ok: false, refusal: { reason: 'body-too-large' } };
  if (!request.body) return { ok: false, refusal: { reason: 'malformed' } };

  const parser = enquiryParser(request.headers.get('content-type') ?? '');
  if (!parser) return { ok: false, refusal: { reason: 'malformed' } };

  await mkdir(options.incomingDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const folder = await mkdtemp(path.join(options.incomingDir, 'upload-'));
  const keepFiles = options.keepFiles ?? true;
  const cleanup = () => rm(folder, { recursive: true, force: true });
  const parts: ReadParts = { fields: {}, files: [], writes: [] };

  const source = Readable.fromWeb(request.body as unknown as NodeWebReadableStream<Uint8Array>);
  const done = readParts(source, parser, parts, { folder, keepFiles });

  source.pipe(parser);
  try {
    await done;
    await Promise.all(parts.writes);
    if (!keepFiles) await cleanup();
    return { ok: true, value: { fields: parts.fields, files: parts.files, cleanup } };
  } catch (error) {
    // Stop reading: nothing more of this body is buffered or written.
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
    await Promise.allSettled(parts.writes);
    await cleanup();
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    return { ok: false, refusal: { reason: 'malformed' } };
  }
}

/** A parser held to the enquiry's limits, or null when the Content-Type is not multipart with a boundary. */
function enquiryParser(contentType: string): busboy.Busboy | null {
  try {
    return busboy({
      headers: { 'content-type': contentType },
      limits: {
        fieldNameSize: 100,
        fieldSize: ENQUIRY_TEXT_MAX_BYTES,
        fields: MULTIPART_MAX_FIELDS,
        // One more than allowed, so a seventh file is seen and refused rather than silently dropped.
        files: PHOTO_MAX_COUNT + 1,
        fileSize: PHOTO_MAX_BYTES,
        parts: MULTIPART_MAX_FIELDS + PHOTO_MAX_COUNT + 1,
        headerPairs: 20,
      },
    });
  } catch {
    return null;
  }
}

/** What a body's parts leave as they are read: the text fields, the photos, and the writes of their bytes. */
type ReadParts = { fields: Record<string, string>; files: UploadedFile[]; writes: Promise<void>[] };

/**
 * Listens to the body and its parser until the parser closes (resolved) or a limit is passed (rejected
 * with Refused): text fields into `parts.fields`, each photo counted, identified and written.
 */
function readParts(
  source: Readable,
  parser: busboy.Busboy,
  parts: ReadParts,
  place: { folder: string; keepFiles: boolean },
): Promise<void> {
  let textBytes = 0;
  let received = 0;
  return new Promise<void>((resolve, reject) => {
    const refuse = (refusal: ReadingRefusal) => reject(new Refused(refusal));
    parser.on('field', (name, value, info) => {
      textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.valueTruncated || info.nameTruncated || textBytes > ENQUIRY_TEXT_MAX_BYTES) return refuse({ reason: 'text-too-large' });
      // The first value of a field counts, as in a JSON object with one key per field.
      if (!(name in parts.fields)) parts.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => readPhotoPart(name, stream, info.filename, parts, place, refuse));
    parser.on('filesLimit', () => refuse({ reason: 'too-many-photos' }));
    parser.on('fieldsLimit', () => refuse({ reason: 'text-too-large' }));
    parser.on('partsLimit', () => refuse({ reason: 'text-too-large' }));
    parser.on('error', () => refuse({ reason: 'malformed' }));
    parser.on('close', () => resolve());
    source.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > LARGEST_BODY_BYTES) refuse({ reason: 'body-too-large' });
    });
    source.on('error', () => refuse({ reason: 'malformed' }));
  });
}

/** One file part: a photo counted, its first bytes kept, written to the folder (or to nowhere); any other field's file skipped. */
function readPhotoPart(
  name: string,
  stream: Readable,
  filename: string | undefined,
  parts: ReadParts,
  { folder, keepFiles }: { folder: string; keepFiles: boolean },
  refuse: (refusal: ReadingRefusal) => void,
): void {
  // A stream cut short by destroy() (readMultipartEnquiry) errors; with no listener that would end the process.
  stream.on('error', () => undefined);
  if (name !== PHOTO_FIELD) {
    stream.resume();
    return;
  }
  const files = parts.files;
  const file: UploadedFile = {
    name: displayName(filename),
    path: path.join(folder, String(files.length)),
    bytes: 0,
    head: Buffer.alloc(0),
  };
  if (files.length >= PHOTO_MAX_COUNT) {
    stream.resume();
    return refuse({ reason: 'too-many-photos', file: file.name });
  }
  files.push(file);
  stream.on('data', (chunk: Buffer) => {
    if (file.head.length < HEAD_BYTES) file.head = Buffer.concat([file.head, chunk.subarray(0, HEAD_BYTES - file.head.length)]);
    file.bytes += chunk.length;
  });
  stream.on('limit', () => refuse({ reason: 'photo-too-large', file: file.name }));
  const sink = keepFiles
    ? createWriteStream(file.path, { mode: PRIVATE_FILE_MODE })
    : new Writable({ write: (_chunk, _encoding, next) => next() });
  parts.writes.push(pipeline(stream, sink));
}

/**
 * Empties the folder uploads wait in (at start-up: whatever a process that died left there, GPS tags
 * and all). One server per photos folder, so nothing in it belongs to a request in flight.
 */
export async function clearIncomingUploads(incomingDir: string): Promise<void> {
  await rm(incomingDir, { recursive: true, force: true });
  await mkdir(incomingDir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
