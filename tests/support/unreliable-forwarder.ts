import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Unreliability = {
  /** The page's own scripts do not arrive (a blocked or slow script): it runs as without JavaScript. */
  blockScripts?: boolean;
  /**
   * POSTs to this path reach the site, whose answers are then lost (the connection is reset), from the
   * first until none has come for a second and a half after the last answer lost: the browser's own
   * resends are lost too, and the page has to notice. Firefox sends a POST again by itself on a reset
   * connection, several times in a row (seven and more measured), each once the site has answered the
   * one before: on a busy site that takes over a second, so no window timed from the first POST holds
   * them all. What the page tries later (its own retry after two seconds, the service worker's after
   * five) is answered.
   */
  loseFirstAnswerTo?: string;
  /**
   * The loopback address (127.x.y.z) the forwarder connects to the site from: the site then sees a
   * client of its own, with its own rate limits and acknowledgement caps.
   */
  sourceAddress?: string;
};

/**
 * How long after an answer was lost a POST's answer is lost too: well over the time a browser takes to
 * send it again by itself (milliseconds; up to 0.25 s measured on a busy machine), under the page's own
 * wait before its retry (two seconds from the failure it was told of, which comes after the last loss).
 */
const LOSING_QUIET_MS = 1_500;

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
  /** Answers being lost: how many the site has yet to give, and until when (once none is left) a POST's is lost too. */
  let losing = 0;
  let losingUntil: number | undefined;
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (unreliability.blockScripts && /^\/_next\/static\/.*\.js(?:\?|$)/.test(url)) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('blocked');
      return;
    }
    const posted = request.method === 'POST' && url.split('?')[0] === unreliability.loseFirstAnswerTo;
    const loseAnswer = posted && (losingUntil === undefined || losing > 0 || Date.now() < losingUntil);
    let lossEnded = () => {};
    if (loseAnswer) {
      lost += 1;
      losing += 1;
      losingUntil = Date.now() + LOSING_QUIET_MS;
      lossEnded = () => {
        lossEnded = () => {};
        losing -= 1;
        losingUntil = Date.now() + LOSING_QUIET_MS;
      };
    }
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
          answer.on('close', () => lossEnded());
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      lossEnded();
      response.destroy();
    });
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
