// An SMTP server for the tests and the contact benchmark (no server-only imports, so plain tsx runs it).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

/**
 * An in-process SMTP server (no TLS) collecting every message it accepts. With `login`, it requires
 * AUTH and answers any other user or password with 535, as a relay does when the site's settings are wrong.
 */
export async function startSmtpServer(
  port = 0,
  options: {
    login?: { user: string; password: string };
    /** Called when a message's data starts arriving; the server then waits `acceptDelayMs` before accepting it. */
    onDataStart?: () => void;
    acceptDelayMs?: number;
    /** A relay's size limit: a larger message is answered 552 once it has arrived (as many relays do). */
    maxMessageBytes?: number;
  } = {},
): Promise<{ port: number; received: ReceivedMail[]; close: () => Promise<void> }> {
  const received: ReceivedMail[] = [];
  const { login } = options;
  const server = new SMTPServer({
    disabledCommands: login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !login,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      options.onDataStart?.();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
        if (options.maxMessageBytes !== undefined && size > options.maxMessageBytes)
          return callback(Object.assign(new Error('Message size exceeds fixed maximum message size'), { responseCode: 552 }));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        if (options.acceptDelayMs) setTimeout(() => callback(), options.acceptDelayMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  return { port: address.port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
