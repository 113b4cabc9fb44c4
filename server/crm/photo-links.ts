import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';
import { getDb, orm } from '@/server/base/db';
import { enquiries, enquiryPhotos, siteSecrets } from '@/server/base/db-schema';
import { photosRoot } from '@/server/ledger/photo-store';

/**
 * The signed links to an enquiry's photos that its webhook events carry to the company's CRM. A token
 * is `<enquiryId>.<position>.<expires>.<mac>`, the mac an HMAC of that one photo (its enquiry, position
 * and stored file, and the enquiry's own random submission key) and the expiry (epoch seconds), under
 * the site's `photo-links` secret (migration 0017): unguessable, good for one photo only, dead after
 * the expiry, and gone with the enquiry when retention or an erasure deletes its rows. A link serves
 * the stored photo (re-encoded on upload, so without its metadata) and nothing else of the enquiry.
 */
export const PHOTO_LINK_TTL_MS = 7 * 24 * 60 * 60_000;
export const PHOTO_LINK_PREFIX = '/api/enquiry-photos/';

export type PhotoLink = { position: number; url: string; width: number; height: number; bytes: number; expiresAt: string };

const SECRET_NAME = 'photo-links';
const MAC_CHARACTERS = 32;
const TOKEN_PATTERN = /^([1-9][0-9]{0,11})\.([1-9][0-9]{0,5})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{32})$/;
const SUBMISSION_KEY_PATTERN = /^[0-9a-f-]{36}$/;

async function secretOf(db: Client): Promise<Buffer> {
  const [row] = await orm(db).select({ value: siteSecrets.value }).from(siteSecrets).where(eq(siteSecrets.name, SECRET_NAME));
  if (!row) throw new Error('The photo links secret is missing from the database (migration 0017 makes it).');
  return row.value;
}

type SignedPhoto = { enquiryId: number; position: number; fileName: string; submissionKey: string; expires: number };

const macOf = (secret: Buffer, photo: SignedPhoto) =>
  createHmac('sha256', secret)
    .update(`photo:${photo.enquiryId}:${photo.position}:${photo.fileName}:${photo.submissionKey}:${photo.expires}`)
    .digest('base64url')
    .slice(0, MAC_CHARACTERS);

function storedPhotos(db: Client, where: SQL | undefined) {
  return orm(db)
    .select({
      position: enquiryPhotos.position,
      fileName: enquiryPhotos.fileName,
      width: enquiryPhotos.width,
      height: enquiryPhotos.height,
      bytes: enquiryPhotos.bytes,
      submissionKey: sql<string | null>`${enquiries.submissionKey}`,
    })
    .from(enquiryPhotos)
    .innerJoin(enquiries, eq(enquiries.id, enquiryPhotos.enquiryId))
    .where(where)
    .orderBy(asc(enquiryPhotos.position));
}

/**
 * Links to the enquiry's photos with `from <= position < until` (either bound optional), in position
 * order, each expiring `ttlMs` (default PHOTO_LINK_TTL_MS) after `now`. None when the enquiry is gone.
 */
export async function photoLinks(
  db: Client,
  siteUrl: string,
  enquiryId: number,
  options: { from?: number; until?: number; now: number; ttlMs?: number },
): Promise<PhotoLink[]> {
  const rows = await storedPhotos(
    db,
    and(
      eq(enquiryPhotos.enquiryId, enquiryId),
      options.from === undefined ? undefined : gte(enquiryPhotos.position, options.from),
      options.until === undefined ? undefined : lt(enquiryPhotos.position, options.until),
    ),
  );
  if (rows.length === 0) return [];
  const secret = await secretOf(db);
  const expires = Math.floor((options.now + (options.ttlMs ?? PHOTO_LINK_TTL_MS)) / 1000);
  const origin = trimTrailingSlashes(siteUrl);
  return rows.flatMap(({ position, fileName, width, height, bytes, submissionKey }) => {
    if (!submissionKey) return [];
    const mac = macOf(secret, { enquiryId, position, fileName, submissionKey, expires });
    return [
      {
        position,
        url: `${origin}${PHOTO_LINK_PREFIX}${enquiryId}.${position}.${expires}.${mac}`,
        width,
        height,
        bytes,
        expiresAt: new Date(expires * 1000).toISOString(),
      },
    ];
  });
}

/**
 * The stored file a token opens (its path under `root`, the photos' folder) and the photo's position,
 * or null for anything else: malformed, forged, for another photo, expired, or its photo or enquiry
 * no longer stored. Expired and unknown are not told apart, so a link says nothing once it is dead.
 */
export async function photoOfLink(
  db: Client,
  token: string,
  now: number,
  root: string = photosRoot(),
): Promise<{ path: string; position: number } | null> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [enquiryId, position, expires] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (expires * 1000 <= now) return null;
  const [row] = await storedPhotos(db, and(eq(enquiryPhotos.enquiryId, enquiryId), eq(enquiryPhotos.position, position)));
  const submissionKey = row?.submissionKey;
  if (!row || !submissionKey || !SUBMISSION_KEY_PATTERN.test(submissionKey) || path.basename(row.fileName) !== row.fileName) {
    return null;
  }
  const expected = Buffer.from(macOf(await secretOf(db), { enquiryId, position, fileName: row.fileName, submissionKey, expires }));
  const given = Buffer.from(match[4]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { path: path.join(root, submissionKey, row.fileName), position };
}

export type PhotoLinkRouteDeps = {
  db?: () => Promise<Client>;
  photosRoot?: string;
  now?: () => number;
};

const notFound = () =>
  new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

/**
 * GET /api/enquiry-photos/<token>: the photo the token opens, as the stored JPEG, or 404 for any token
 * that opens nothing. The token is never logged. server/edge/response-headers.mjs keeps these responses
 * out of search engines and other sites' referrers.
 */
export function createPhotoLinkRoute(deps: PhotoLinkRouteDeps = {}) {
  const db = deps.db ?? getDb;
  const now = deps.now ?? Date.now;
  return {
    async GET(_request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
      const { token } = await params;
      const photo = await photoOfLink(await db(), token, now(), deps.photosRoot ?? photosRoot());
      if (!photo) return notFound();
      // The path is under the photos folder, known only at run time: nothing for the build to trace.
      const content = await readFile(/*turbopackIgnore: true*/ photo.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!content) return notFound();
      return new Response(new Uint8Array(content), {
        status: 200,
        headers: {
          'Content-Type': 'image/jpeg',
          'Content-Length': String(content.byteLength),
          'Content-Disposition': `inline; filename="photo-${photo.position}.jpg"`,
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    },
  };
}
