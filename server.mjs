// The site's server: Next's request handler behind a plain Node HTTP server, so the site knows
// each visitor's address (Next itself only passes on X-Forwarded-For, which a client can forge; with
// TRUST_PROXY proxies in front, the right hop of it: server/proxy-client-address.mjs)
// and every response gets the security and cache headers of server/response-headers.mjs.
// What it does on each path of its own (uploads, claim forms, a retired address) is the table of
// server/path-rules.mjs; the screens below carry it out.
// `node server.mjs` serves the production build (`npm start`); `node server.mjs --dev` runs Next's
// development server behind the same headers (`npm run dev`), so a CSP problem shows while developing.
import { createServer } from 'node:http';
import nextEnv from '@next/env';
import next from 'next';
import { tsImport } from 'tsx/esm/api';
import { changedBuildSettings, describeChanges } from './server/build-settings.mjs';
import { config } from './server/config.mjs';
import { claimFormPostRefusal } from './server/claim-pages.mjs';
import { TRACK_PATH } from './lib/claim-paths.mjs';
import { contactPostRefusal, refusalPage } from './server/contact-page-post.mjs';
import { createUploadSlots } from './server/upload-slots.mjs';
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from './server/proxy-client-address.mjs';
import { mediaTypeOf } from './server/media-type.mjs';
import { withPageStatus } from './server/page-status.mjs';
import { bodyRuleOf, takesBody, withDecodablePath } from './server/path-rules.mjs';
import { isCrossSiteRequest } from './server/request-origin.mjs';
import { developmentManifest, loadCspManifest, responseClassWithSiteHeaders } from './server/response-headers.mjs';
import {
  applyServerLimits,
  bodyRequestRefusal,
  guardRequestBody,
  normalisedPathname,
  PAGE_METHODS,
  serverOptions,
  SHUTDOWN_GRACE_MS,
} from './server/server-limits.mjs';
import { runShutdownHooks } from './server/shutdown-hooks.mjs';
import { admitUpload } from './server/upload-door.mjs';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
// A log reader that goes away (the pipe to a supervisor that died) loses the lines written after it,
// nothing more. Without these handlers a failed write is an unhandled stream error, and such a server
// spun on SIGTERM instead of stopping.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
const dev = process.argv.includes('--dev');
// Next reads the .env files itself when it starts; the settings checked below must be the same.
nextEnv.loadEnvConfig(process.cwd(), dev);
let settings;
try {
  settings = config();
} catch (error) {
  // A bad setting stops the server with the variable named, before the first visitor.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const { port, hostname, distDir, trustedProxies } = settings;
const trustProxy = trustedProxies > 0;

// The script hashes of this build's pages (scripts/site/csp-hashes.ts); without them no page could run.
const manifest = dev ? developmentManifest(settings.public) : loadCspManifest(distDir);
if (!dev) {
  // Serving a build made for other values would publish them (a canonical origin of localhost).
  const changed = changedBuildSettings(manifest.builtWith, process.env);
  if (changed.length > 0) {
    console.error(
      `The build in ${distDir} was made with other values of settings that are fixed when the site is built:\n${describeChanges(changed)}\n` +
        'Build it again with the values it should serve (npm run build; npm start does this itself), or start it with the values it was built with.',
    );
    process.exit(1);
  }
}

const app = next({ dev, port, hostname: hostname === '0.0.0.0' ? 'localhost' : hostname });
const handle = app.getRequestHandler();
await app.prepare();

let shuttingDown = false;

// The words of the pages answered before Next sees a request (content/ is TypeScript; tsx reads it).
/** @type {{ refusedPostPages: typeof import('./content/contact').refusedPostPages; CONTACT_RESPONSES: typeof import('./content/contact').CONTACT_RESPONSES }} */
const { refusedPostPages: pages, CONTACT_RESPONSES: answers } = await tsImport('./content/contact.ts', import.meta.url);
/** @type {{ PHOTO_FIELD: typeof import('./lib/contact-fields').PHOTO_FIELD }} */
const { PHOTO_FIELD } = await tsImport('./lib/contact-fields.ts', import.meta.url);
/** @type {{ business: typeof import('./content/business').business }} */
const { business } = await tsImport('./content/business.ts', import.meta.url);
// The process's one set of upload slots, for both ways an enquiry with photos comes in.
const uploadSlots = createUploadSlots();
/** @type {{ laterPhotosDoorPages: typeof import('./content/claims').laterPhotosDoorPages; laterPhotosPageLinks: typeof import('./content/claims').laterPhotosPageLinks; laterPhotosRetiredPage: typeof import('./content/claims').laterPhotosRetiredPage; laterPhotosText: typeof import('./content/claims').laterPhotosText }} */
const { laterPhotosDoorPages, laterPhotosPageLinks, laterPhotosRetiredPage, laterPhotosText } = await tsImport(
  './content/claims.ts',
  import.meta.url,
);

/**
 * Answers before a byte of the body is read; the connection closes rather than draining it.
 * @param {import('node:http').ServerResponse} response
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {string} body
 */
function answerUnread(response, status, headers, body) {
  response.writeHead(status, {
    'Cache-Control': 'no-store',
    ...headers,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  });
  response.end(body);
}

/**
 * @param {import('node:http').ServerResponse} response
 * @param {number} status
 * @param {{ title: string; text: string } | undefined} page
 * @param {Record<string, string>} [headers]
 */
function answerWithPage(response, status, page, headers = {}) {
  const html = refusalPage(page ?? { title: 'Error', text: '' }, { back: pages.back, call: pages.call, phone: business.phone });
  answerUnread(response, status, { 'Content-Type': 'text/html; charset=utf-8', ...headers }, html);
}

/**
 * The checks made on a request that carries a body before Next reads any of it. Returns true when it
 * has been answered here. (Next's development server posts to its own endpoints: production only.)
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 */
function screenBody(request, response) {
  const method = request.method ?? 'GET';
  if (PAGE_METHODS.includes(method)) {
    guardRequestBody(request, response);
    return false;
  }
  const refusal = bodyRequestRefusal(method, request.url, [takesBody]);
  if (refusal === 'bad-path') {
    answerUnread(response, 400, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Bad Request\n');
    return true;
  }
  if (refusal === 'method') {
    answerUnread(response, 405, { Allow: PAGE_METHODS.join(', '), 'Content-Type': 'text/plain; charset=utf-8' }, 'Method Not Allowed\n');
    return true;
  }
  const rule = bodyRuleOf(normalisedPathname(request.url) ?? '');
  if (rule?.body.takes === 'gone') {
    answerLaterPhotos(response, wantsJson(request), 410, 'not-found', laterPhotosRetiredPage);
    return true;
  }
  if (isCrossSiteRequest(request.headers, trustProxy)) {
    if (rule?.body.answers === 'page') answerWithPage(response, 403, pages.crossSite);
    else
      answerUnread(
        response,
        403,
        { 'Content-Type': 'application/json' },
        // `reason`: one of lib/contact-answer.mjs's.
        JSON.stringify({ success: false, message: pages.crossSite.text, reason: 'cross-site' }),
      );
    return true;
  }
  const screen = rule && screens[rule.name];
  if (screen) return screen(request, response, method, rule.body);
  guardRequestBody(request, response);
  return false;
}

/**
 * A method the path's rule does not allow, answered 405 with its Allow; true when answered.
 * @param {import('node:http').ServerResponse} response
 * @param {string} method
 * @param {import('./server/path-rules.mjs').BodyRule} body
 */
function refusedMethod(response, method, body) {
  if (!body.allow || body.allow.includes(method)) return false;
  answerUnread(response, 405, { Allow: body.allow.join(', '), 'Content-Type': 'text/plain; charset=utf-8' }, 'Method Not Allowed\n');
  return true;
}

/**
 * POST /contact, the contact form posted without script: a multipart body up to the largest enquiry,
 * by the upload door; answered with a short page when turned away.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {string} method
 * @param {import('./server/path-rules.mjs').BodyRule} body
 */
function screenContactPage(request, response, method, body) {
  if (refusedMethod(response, method, body)) return true;
  const unfit = contactPostRefusal(request.headers);
  if (unfit) {
    answerWithPage(
      response,
      unfit.status,
      { 'not-a-form': pages.notAForm, 'no-length': pages.noLength, 'too-large': pages.tooLarge }[unfit.reason],
    );
    return true;
  }
  return admitUpload(request, response, {
    slots: uploadSlots,
    refuse: (refused, refusal, status, headers) => answerWithPage(refused, status, doorPages[refusal], headers),
  });
}

/** What the form posted without script is told when its body is turned away at the upload door. */
const doorPages = { busy: pages.busy, 'in-progress': pages.inProgress, strikes: pages.tooManyFailed, 'too-slow': pages.tooSlow };

/**
 * The scripted form's answers when its body is turned away at the upload door, as the contact route
 * answers (`reason`: one of lib/contact-answer.mjs's); it tries again by itself after a busy one.
 * @type {Record<import('./server/upload-door.mjs').DoorRefusal, object>}
 */
const doorAnswers = {
  busy: { success: false, message: answers.photosBusy, reason: 'busy' },
  'in-progress': { success: false, message: answers.uploadInProgress, reason: 'busy' },
  strikes: { success: false, message: answers.tooMany, reason: 'rate-limited' },
  'too-slow': {
    success: false,
    message: answers.uploadTooSlow,
    reason: 'too-slow',
    errors: [{ path: PHOTO_FIELD, msg: answers.uploadTooSlow }],
  },
};

/**
 * A claim page's form (the look-up, the staff update), posted to its page: a small multipart form.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {string} method
 * @param {import('./server/path-rules.mjs').BodyRule} body
 */
function screenClaimForm(request, response, method, body) {
  if (refusedMethod(response, method, body)) return true;
  const refused = claimFormPostRefusal(request.headers);
  if (refused) {
    const text = { 411: 'Length Required', 413: 'Payload Too Large', 415: 'Unsupported Media Type' }[refused.status];
    answerUnread(response, refused.status, { 'Content-Type': 'text/plain; charset=utf-8' }, `${text}\n`);
    return true;
  }
  guardRequestBody(request, response);
  return false;
}

/**
 * POST /api/contact: JSON goes straight to Next under the body guard; an enquiry with photos
 * (multipart) comes in by the upload door.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {string} method
 */
function screenContactApi(request, response, method) {
  if (method !== 'POST' || mediaTypeOf(request.headers['content-type']) !== 'multipart/form-data') {
    guardRequestBody(request, response);
    return false;
  }
  return admitUpload(request, response, {
    slots: uploadSlots,
    refuse: (refused, refusal, status, headers) =>
      answerUnread(refused, status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(doorAnswers[refusal])),
  });
}

/**
 * The `reason` of a later-photos upload turned away at the door, as /api/contact's: `rate-limited` when
 * it is this client's own doing (its uploads kept ending slow or abandoned), `busy` while an upload is
 * in progress (its own earlier one, or every slot taken).
 * @type {Record<import('./server/upload-door.mjs').DoorRefusal, import('./lib/contact-answer.mjs').AnswerReason>}
 */
const laterPhotosDoorReasons = { busy: 'busy', 'in-progress': 'busy', strikes: 'rate-limited', 'too-slow': 'too-slow' };

/**
 * Whether a post of photos added later is the scripted form's (it asks for JSON) or a browser's navigation.
 * @param {import('node:http').IncomingMessage} request
 */
const wantsJson = (request) => String(request.headers.accept ?? '').includes('application/json');

/**
 * A post of photos added later answered here, before Next reads any of it: JSON for the scripted
 * form, as the route answers; a short page for the form posted without script.
 * @param {import('node:http').ServerResponse} target
 * @param {boolean} json
 * @param {number} status
 * @param {string} reason
 * @param {{ title: string; text: string }} page
 * @param {Record<string, string>} [headers]
 */
function answerLaterPhotos(target, json, status, reason, page, headers = {}) {
  if (json)
    answerUnread(
      target,
      status,
      { 'Content-Type': 'application/json', ...headers },
      JSON.stringify({
        success: false,
        message: page.text,
        reason,
        ...(headers['Retry-After'] ? { retryAfterSeconds: Number(headers['Retry-After']) } : {}),
      }),
    );
  else
    answerUnread(
      target,
      status,
      { 'Content-Type': 'text/html; charset=utf-8', ...headers },
      refusalPage(page, { back: laterPhotosPageLinks.back, backHref: TRACK_PATH, call: laterPhotosPageLinks.call, phone: business.phone }),
    );
}

/**
 * POST /claims/<reference>/photos, photos added from a claim's status page (opened by its cookie, which
 * the route checks before it reads the body): a multipart body up to the largest enquiry's, by the same upload door. The scripted form (Accept: application/json) is answered as the
 * route answers; the form posted without script, with a short page.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {string} method
 * @param {import('./server/path-rules.mjs').BodyRule} body
 */
function screenLaterPhotos(request, response, method, body) {
  const json = wantsJson(request);
  /** @type {(target: import('node:http').ServerResponse, status: number, reason: string, page: { title: string; text: string }, headers?: Record<string, string>) => void} */
  const answer = (target, status, reason, page, headers = {}) => answerLaterPhotos(target, json, status, reason, page, headers);
  if (refusedMethod(response, method, body)) return true;
  const unfit = contactPostRefusal(request.headers);
  if (unfit) {
    const outcome = unfit.reason === 'too-large' ? 'too-many' : 'malformed';
    answer(response, unfit.status, outcome, { title: laterPhotosText.heading, text: laterPhotosText.outcomes[outcome] });
    return true;
  }
  return admitUpload(request, response, {
    slots: uploadSlots,
    refuse: (refused, refusal, status, headers) =>
      answer(refused, status, laterPhotosDoorReasons[refusal], laterPhotosDoorPages[refusal], headers),
  });
}

/**
 * How a body is screened on each path of server/path-rules.mjs that takes one, before Next reads it.
 * @type {Record<string, (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse, method: string, body: import('./server/path-rules.mjs').BodyRule) => boolean>}
 */
const screens = {
  'contact-api': screenContactApi,
  'contact-page': screenContactPage,
  'later-photos': screenLaterPhotos,
  'claim-form': screenClaimForm,
};

const SiteResponse = responseClassWithSiteHeaders({ manifest, trustProxy });
const server = createServer({ ...serverOptions(), ServerResponse: SiteResponse }, (request, response) => {
  request.url = withDecodablePath(request.url);
  request.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(
    request.socket.remoteAddress,
    request.headers['x-forwarded-for'],
    trustedProxies,
  );
  // Once shutting down, a keep-alive client is told to reconnect (to the restarted process).
  if (shuttingDown) response.setHeader('Connection', 'close');
  if (dev) guardRequestBody(request, response);
  else if (screenBody(request, response)) return;
  void withPageStatus(request, response, () => handle(request, response));
});
applyServerLimits(server);
server.listen(port, hostname, () => {
  console.log(`Serving${dev ? ' (development)' : ''} on http://localhost:${port}`);
});

/**
 * Resolves once what was written to `stream` is handed to the system, or at once when it cannot be
 * (its reader gone), or after a second at most.
 * @param {NodeJS.WriteStream} stream
 */
const flushed = (stream) =>
  new Promise((resolve) => {
    if (stream.destroyed) return resolve(undefined);
    setTimeout(resolve, 1000).unref();
    stream.write('', () => resolve(undefined));
  });

/**
 * A supervisor's stop or restart: accept no new connections, let requests in flight finish (an enquiry
 * being committed), let the outbox worker finish and record the notification it is sending, flush the
 * logs, exit 0. Bounded by SHUTDOWN_GRACE_MS; a job cut off by the bound keeps its lease and is sent
 * after the restart (decision 0005).
 */
/** @param {string} signal */
async function shutDown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  const started = Date.now();
  console.log(`[server] ${signal}: finishing requests and notifications in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s)`);
  const requestsDone = new Promise((resolve) => server.close(() => resolve(true)));
  server.closeIdleConnections();
  const inTime = await Promise.race([requestsDone, new Promise((resolve) => setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS).unref())]);
  const hooksInTime = await runShutdownHooks(Math.max(1000, SHUTDOWN_GRACE_MS - (Date.now() - started)));
  if (!inTime || !hooksInTime) console.error('[server] the grace period ran out; stopping anyway');
  server.closeAllConnections();
  console.log('[server] stopped');
  await Promise.all([process.stdout, process.stderr].map(flushed));
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void shutDown(signal));
