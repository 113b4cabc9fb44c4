// The site's server: Next's request handler behind a plain Node HTTP server, so the site knows
// each visitor's address (Next itself only passes on X-Forwarded-For, which a client can forge; with
// TRUST_PROXY proxies in front, the right hop of it: server/edge/client-address.mjs)
// and every response gets the security and cache headers of server/edge/response-headers.mjs.
// What it does on each path of its own (uploads, claim forms, a retired address) is the table of
// server/edge/path-rules.mjs, which server/edge/body-checks.mjs carries out. This file only assembles
// the parts of server/edge/ around Next.
// `node server.mjs` serves the production build (`npm start`); `node server.mjs --dev` runs Next's
// development server behind the same headers (`npm run dev`), so a CSP problem shows while developing.
import { createServer } from 'node:http';
import nextEnv from '@next/env';
import next from 'next';
import { tsImport } from 'tsx/esm/api';
import { changedBuildSettings, describeChanges } from './server/base/build-settings.mjs';
import { config } from './server/base/config.mjs';
import { BodyChecks } from './server/edge/body-checks.mjs';
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from './server/edge/client-address.mjs';
import { stopGracefullyOnSignals } from './server/edge/graceful-shutdown.mjs';
import { withPageStatus } from './server/edge/page-status.mjs';
import { withDecodablePath } from './server/edge/path-rules.mjs';
import { developmentManifest, loadCspManifest, responseClassWithSiteHeaders } from './server/edge/response-headers.mjs';
import { applyServerLimits, guardRequestBody, serverOptions } from './server/edge/server-limits.mjs';

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

// The words of the responses given before Next sees a request (content/ is TypeScript; tsx reads it).
/** @type {{ refusedPostPages: typeof import('./content/contact').refusedPostPages; CONTACT_RESPONSES: typeof import('./content/contact').CONTACT_RESPONSES }} */
const { refusedPostPages: pages, CONTACT_RESPONSES: responses } = await tsImport('./content/contact.ts', import.meta.url);
/** @type {{ PHOTO_FIELD: typeof import('./lib/contact-fields').PHOTO_FIELD }} */
const { PHOTO_FIELD: photoField } = await tsImport('./lib/contact-fields.ts', import.meta.url);
/** @type {{ business: typeof import('./content/business').business }} */
const { business } = await tsImport('./content/business.ts', import.meta.url);
/** @type {Pick<typeof import('./content/later-photos'), 'laterPhotosGatePages' | 'laterPhotosPageLinks' | 'laterPhotosRetiredPage' | 'laterPhotosText'>} */
const { laterPhotosGatePages, laterPhotosPageLinks, laterPhotosRetiredPage, laterPhotosText } = await tsImport(
  './content/later-photos.ts',
  import.meta.url,
);
const bodyChecks = new BodyChecks({
  trustProxy,
  words: {
    pages,
    responses,
    photoField,
    phone: business.phone,
    laterPhotosGatePages,
    laterPhotosPageLinks,
    laterPhotosRetiredPage,
    laterPhotosText,
  },
});

const SiteResponse = responseClassWithSiteHeaders({ manifest, trustProxy });
const server = createServer({ ...serverOptions(), ServerResponse: SiteResponse }, (request, response) => {
  request.url = withDecodablePath(request.url);
  request.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(
    request.socket.remoteAddress,
    request.headers['x-forwarded-for'],
    trustedProxies,
  );
  // Once shutting down, a keep-alive client is told to reconnect (to the restarted process).
  if (stopping()) response.setHeader('Connection', 'close');
  if (dev) guardRequestBody(request, response);
  else if (bodyChecks.check(request, response)) return;
  void withPageStatus(request, response, () => handle(request, response));
});
applyServerLimits(server);
const stopping = stopGracefullyOnSignals(server);
server.listen(port, hostname, () => {
  console.log(`Serving${dev ? ' (development)' : ''} on http://localhost:${port}`);
});
