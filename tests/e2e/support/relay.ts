import net, { type AddressInfo } from 'node:net';

// A phone's signal between the browser and the site, as a TCP relay a test can cut and restore. It
// works below HTTP, so the bytes pass unchanged (the site sees the relay's host in both `Host` and
// `Origin`), a service worker's own requests are cut as well as the page's (Playwright's setOffline
// does not reach them), and an upload can be cut partway through its body.

export type Relay = {
  /** `http://localhost:<port>`: one origin for the whole test, cut or not (a service worker is per origin). */
  url: string;
  /** No signal: every open connection is destroyed and new ones are refused. */
  cut: () => Promise<void>;
  /** The signal is back: connections are accepted again on the same port. */
  restore: () => Promise<void>;
  /**
   * The next upload (a request starting with POST, PUT or PATCH; to `path` when given; after letting
   * `after` such uploads through whole) is cut after `bytes` bytes of it, headers included, have gone
   * through to the site; then the relay stays cut until restored. Resolves once it has cut.
   */
  cutAfter: (bytes: number, options?: { path?: string; after?: number }) => Promise<void>;
  close: () => Promise<void>;
};

/** Whether a connection's chunk starts the upload `path` names (any upload without one). */
function startsUpload(chunk: Buffer, path: string | undefined): boolean {
  const line = /^(?:POST|PUT|PATCH) (\S+)/.exec(chunk.subarray(0, 2048).toString('latin1'));
  return line !== null && (path === undefined || line[1]!.split('?')[0] === path);
}

/**
 * `sourceAddress`: the loopback address the relay connects to the site from, so the site sees this phone
 * as a client of its own (127.0.0.2 and up all reach the machine itself on Linux).
 */
export async function startRelay(
  targetPort: number,
  targetHost = '127.0.0.1',
  { sourceAddress }: { sourceAddress?: string } = {},
): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  let pendingCut: { bytes: number; path: string | undefined; passWhole: number; done: () => void } | undefined;

  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A destroyed peer's socket errors; the other side is destroyed with it below.
    socket.on('error', () => undefined);
  };

  const relayConnection = (client: net.Socket) => {
    track(client);
    const site = net.connect({ host: targetHost, port: targetPort, ...(sourceAddress ? { localAddress: sourceAddress } : {}) });
    track(site);
    client.on('close', () => site.destroy());
    site.on('close', () => client.destroy());
    site.pipe(client);

    // Counts this connection's upload once its first bytes say it is one; the rest pass unchanged.
    let uploadSent: number | undefined;
    client.on('data', (chunk: Buffer) => {
      const armed = pendingCut;
      if (armed && uploadSent === undefined && startsUpload(chunk, armed.path)) {
        if (armed.passWhole > 0) armed.passWhole -= 1;
        else uploadSent = 0;
      }
      if (!armed || uploadSent === undefined) {
        if (!site.write(chunk)) client.pause();
        return;
      }
      const room = armed.bytes - uploadSent;
      if (chunk.length < room) {
        uploadSent += chunk.length;
        if (!site.write(chunk)) client.pause();
        return;
      }
      pendingCut = undefined;
      // The bytes up to the cut reach the site, then the line goes dead.
      site.write(chunk.subarray(0, room), () => void cut().then(armed.done));
    });
    site.on('drain', () => client.resume());
    client.on('end', () => site.end());
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer(relayConnection);
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject);
        server = next;
        port = (next.address() as AddressInfo).port;
        resolve();
      });
    });

  const cut = async () => {
    const current = server;
    server = undefined;
    destroyAll();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    url: `http://localhost:${port}`,
    cut,
    restore: async () => {
      if (!server) await listen();
    },
    cutAfter: (bytes, { path, after = 0 } = {}) => new Promise<void>((done) => (pendingCut = { bytes, path, passWhole: after, done })),
    close: async () => {
      pendingCut = undefined;
      await cut();
    },
  };
}
