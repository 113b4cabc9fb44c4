// The production server: Next's request handler behind a plain Node HTTP server, so the site knows
// each visitor's socket address (Next itself only passes on X-Forwarded-For, which a client can forge)
// and every response gets the security and cache headers of server/response-headers.mjs.
import { createServer } from 'node:http';
import next from 'next';
import { installResponseHeaders, loadCspManifest } from './server/response-headers.mjs';

export const CLIENT_ADDRESS_HEADER = 'x-homecare-socket-address';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || '0.0.0.0';
const distDir = process.env.NEXT_DIST_DIR || '.next';
const trustProxyValue = process.env.TRUST_PROXY?.trim().toLowerCase();
const trustProxy = !!trustProxyValue && !['0', 'false', 'no'].includes(trustProxyValue);

// The script hashes of this build's pages (scripts/csp-hashes.ts); without them no page could run.
const manifest = loadCspManifest(distDir);

const app = next({ dev: false, port, hostname: hostname === '0.0.0.0' ? 'localhost' : hostname });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  request.headers[CLIENT_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
  installResponseHeaders(request, response, { manifest, trustProxy });
  void handle(request, response);
});
server.listen(port, hostname, () => {
  console.log(`Serving on http://localhost:${port}`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
