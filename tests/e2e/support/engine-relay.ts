import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of the site, on an origin of its own, that can lose the signal and get it
 * back: for Firefox and WebKit, where no offline switch reaches a service worker's own requests.
 * `cut()` destroys every connection and stops listening, so the next connection is refused as with
 * no network at all; `restore()` listens again on the same port (the same origin, so the same
 * service worker). Below HTTP, so uploads pass byte for byte and the site sees the browser's Host.
 */
export type EngineRelay = {
  /** The relay's origin, `http://127.0.0.1:<port>`. */
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Connections accepted since the relay was started. */
  connections(): number;
  close(): Promise<void>;
};

export async function startEngineRelay(target: string, { sourceAddress }: { sourceAddress?: string } = {}): Promise<EngineRelay> {
  const site = new URL(target);
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted += 1;
    const upstream = net.connect({
      host: site.hostname,
      port: Number(site.port),
      ...(sourceAddress ? { localAddress: sourceAddress } : {}),
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut: stop,
    restore: () => listen(port),
    connections: () => accepted,
    close: stop,
  };
}
