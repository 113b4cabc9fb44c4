/**
 * A local fake for the external CRM, speaking its contract for the browser tests and `npm run bench`:
 *   GET  /api/gallery/public         the current gallery scenario (status, body, delay)
 *   GET  /api/gallery/image/:s3Key   the built-in gallery's sample file of that name (media/gallery/samples,
 *                                    public/gallery/samples) when there is one, else a small generated image
 *   GET  /gallery/..., /uploads/...  imageUrl paths: a sample file of that name, else the generated image
 *   GET  /photos/..., /api/gallery/image/photos%2F...
 *                                    a phone photo (4032x3024 JPEG, about 5 MB, GPS EXIF) under any name
 *   POST /api/error-logs             records the entry, answers 201
 * and a control API the tests drive:
 *   PUT    /__control/gallery        { status?, body?, delayMs?, serverStatus? } sets the gallery scenario;
 *                                    serverStatus answers the list to requests without an Origin header
 *                                    (the site's server, not a browser) with that status instead
 *   GET    /__control/error-logs     the entries received so far; `?origin=` only those a page of that
 *                                    origin sent (the browser's Origin header), so a spec's site
 *                                    behind a proxy, running beside the others, stays out of theirs
 *   DELETE /__control/error-logs     forgets them
 *   GET    /__control/media-requests the media paths requested so far
 *   POST   /__control/reset          default scenario, no entries
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { phonePhoto } from './gallery-phone-photo';

export type GalleryScenario = { status: number; body: unknown; delayMs: number; serverStatus?: number };

// A 1x1 PNG; the browser scales it, which is all the tests need of an image.
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/kN8mZQAAAABJRU5ErkJggg==', 'base64');

const SAMPLE_DIRS = ['media/gallery/samples', 'public/gallery/samples'].map((dir) => path.resolve(dir));
const TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** A sample file by its base name (media is matched by name so any key or imageUrl folder works). */
function sampleFile(urlPath: string): string | null {
  const name = path.basename(decodeURIComponent(urlPath));
  if (!name || name.startsWith('.')) return null;
  for (const dir of SAMPLE_DIRS) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function sendMedia(request: IncomingMessage, response: ServerResponse, urlPath: string) {
  const file = sampleFile(urlPath);
  const cors = { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };
  if (!file) {
    response.writeHead(200, { ...cors, 'Content-Type': 'image/png' });
    return void response.end(PIXEL_PNG);
  }
  const bytes = readFileSync(file);
  const headers = { ...cors, 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Accept-Ranges': 'bytes' };
  const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
  if (range) {
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : bytes.length - 1, bytes.length - 1);
    if (start >= bytes.length) {
      response.writeHead(416, { ...headers, 'Content-Range': `bytes */${bytes.length}` });
      return void response.end();
    }
    response.writeHead(206, {
      ...headers,
      'Content-Range': `bytes ${start}-${end}/${bytes.length}`,
      'Content-Length': String(end - start + 1),
    });
    return void response.end(bytes.subarray(start, end + 1));
  }
  response.writeHead(200, { ...headers, 'Content-Length': String(bytes.length) });
  response.end(bytes);
}

const defaultGalleryScenario: GalleryScenario = { status: 200, body: { data: [] }, delayMs: 0 };

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Content-Type, Accept',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
    ...(body === undefined || typeof body === 'string' ? {} : { 'Content-Type': 'application/json' }),
    ...headers,
  });
  response.end(payload);
}

function createFakeCrm() {
  let gallery: GalleryScenario = { ...defaultGalleryScenario };
  const errorLogs: { origin: string | undefined; entry: unknown }[] = [];
  const mediaRequests: string[] = [];

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake-crm');
    try {
      if (request.method === 'OPTIONS') return send(response, 204);
      if (request.method === 'GET' && url.pathname === '/api/gallery/public') {
        if (gallery.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, gallery.delayMs));
        if (gallery.serverStatus !== undefined && request.headers.origin === undefined) return send(response, gallery.serverStatus);
        return send(response, gallery.status, gallery.body);
      }
      const photoKey = decodeURIComponent(url.pathname).startsWith('/api/gallery/image/photos/');
      if (request.method === 'GET' && (url.pathname.startsWith('/photos/') || photoKey)) {
        mediaRequests.push(url.pathname);
        const photo = await phonePhoto();
        response.writeHead(200, {
          'Access-Control-Allow-Origin': '*',
          'Cross-Origin-Resource-Policy': 'cross-origin',
          'Content-Type': 'image/jpeg',
          'Content-Length': String(photo.length),
        });
        return void response.end(photo);
      }
      if (request.method === 'GET' && /^\/(?:api\/gallery\/image|gallery|uploads)\//.test(url.pathname)) {
        mediaRequests.push(url.pathname);
        return sendMedia(request, response, url.pathname);
      }
      if (request.method === 'POST' && url.pathname === '/api/error-logs') {
        const text = await readBody(request);
        errorLogs.push({ origin: request.headers.origin, entry: JSON.parse(text) });
        return send(response, 201, { success: true });
      }
      if (request.method === 'PUT' && url.pathname === '/__control/gallery') {
        gallery = { ...defaultGalleryScenario, ...(JSON.parse(await readBody(request)) as Partial<GalleryScenario>) };
        return send(response, 204);
      }
      if (request.method === 'GET' && url.pathname === '/__control/error-logs') {
        const origin = url.searchParams.get('origin');
        return send(
          response,
          200,
          errorLogs.filter((log) => origin === null || log.origin === origin).map((log) => log.entry),
        );
      }
      if (request.method === 'GET' && url.pathname === '/__control/media-requests') return send(response, 200, mediaRequests);
      if (request.method === 'DELETE' && url.pathname === '/__control/error-logs') {
        errorLogs.length = 0;
        return send(response, 204);
      }
      if (request.method === 'POST' && url.pathname === '/__control/reset') {
        gallery = { ...defaultGalleryScenario };
        errorLogs.length = 0;
        mediaRequests.length = 0;
        return send(response, 204);
      }
      if (request.method === 'GET' && url.pathname === '/__control/health') return send(response, 200, { ok: true });
      return send(response, 404, { success: false, message: 'Not found' });
    } catch (error) {
      return send(response, 400, { success: false, message: error instanceof Error ? error.message : String(error) });
    }
  });

  return { server, getErrorLogs: () => [...errorLogs] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.FAKE_CRM_PORT ?? 4010);
  createFakeCrm().server.listen(port, '127.0.0.1', () => console.log(`Fake CRM listening on http://127.0.0.1:${port}`));
}
