import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Unreliability = {
  /** The page's own scripts do not arrive (a blocked or slow script): it runs as without JavaScript. */
  blockScripts?: boolean;
  /**
   * POSTs to this path reach the site, whose answers are then lost (the connection is reset), for one
   * second from the first: long enough that a browser's own immediate resend (Firefox retries a POST
   * on a reset connection) is lost too, and the page has to notice.
   */
  loseFirstAnswerTo?: string;
  /**
   * The loopback address (127.x.y.z) the forwarder connects to the site from: the site then sees a
   * client of its own, with its own rate limits and acknowledgement caps.
   */
  sourceAddress?: string;
};

/** A loopback address of its own for one test's client (127.0.0.1 is everyone else's). */
export const ownLoopbackAddress = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${2 + Math.floor(Math.random() * 250)}`;

/**
 * A forwarder in front of a local site that fails the way a phone's connection does, for browsers
 * that cannot intercept requests themselves (WebKitWebDriver): every request goes on to `target` with
 * its Host kept, so the site sees the browser's own origin.
 */
export async function startUnreliableForwarder(
  target: string,
  unreliability: Unreliability,
): Promise<{ url: string; lostAnswers: () => number; close: () => Promise<void> }> {
  const site = new URL(target);
  let lost = 0;
  let losingSince: number | undefined;
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (unreliability.blockScripts && /^\/_next\/static\/.*\.js(?:\?|$)/.test(url)) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('blocked');
      return;
    }
    const posted = request.method === 'POST' && url.split('?')[0] === unreliability.loseFirstAnswerTo;
    if (posted) losingSince ??= Date.now();
    const loseAnswer = posted && Date.now() - losingSince! < 1_000;
    if (loseAnswer) lost += 1;
    const upstream = http.request(
      {
        host: site.hostname,
        port: site.port,
        method: request.method,
        path: url,
        headers: request.headers,
        ...(unreliability.sourceAddress ? { localAddress: unreliability.sourceAddress } : {}),
      },
      (answer) => {
        if (loseAnswer) {
          // The site has answered (the enquiry is stored); the phone never hears it.
          answer.resume();
          answer.on('end', () => request.socket.resetAndDestroy());
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lostAnswers: () => lost,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
