import 'server-only';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@/server/base/private-files';
import { writeFileAtomic } from '@/server/base/write-file-atomic.mjs';

export type Mailer = {
  /** Where mail goes, for logs: the SMTP host or the outbox folder. */
  describe: string;
  send(message: Mail.Options): Promise<{ messageId: string }>;
  close(): void;
};

/** Thrown by a send that will never succeed as it stands (an SMTP 5xx answer): no retry. */
export class PermanentMailError extends Error {}

// Answers that are about the site's relay settings, not about one message: the login was refused or is
// required (530, 534, 535, 538), or TLS could not be set up. Retrying a message will not help, and
// failing it would fail every message; delivery pauses until the settings are fixed.
const CONFIGURATION_CODES = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ETLS']);
const CONFIGURATION_RESPONSES = new Set([530, 534, 535, 538]);

export function isSmtpConfigurationFailure(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return (
    (typeof code === 'string' && CONFIGURATION_CODES.has(code)) ||
    (typeof responseCode === 'number' && CONFIGURATION_RESPONSES.has(responseCode))
  );
}

/**
 * The relay refused the message for its size: 552 (RFC 5321's "exceeded storage allocation", which
 * relays answer for a message over their SIZE), or nodemailer's own check against the SIZE the relay
 * advertised before anything was sent.
 */
export function isMessageTooLarge(error: unknown): boolean {
  const { code, responseCode, message } = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  return responseCode === 552 || (code === 'EMESSAGE' && typeof message === 'string' && /size/i.test(message));
}

/** The relay refused this message on its own merits (a 5xx that is not about the settings). */
export function isPermanentSmtpFailure(error: unknown): boolean {
  if (error instanceof PermanentMailError) return true;
  if (isSmtpConfigurationFailure(error)) return false;
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

function smtpMailer(smtpUrl: string): Mailer {
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    // The relay's certificate is always verified; one from a private CA (a LAN smarthost) is trusted
    // through Node's NODE_EXTRA_CA_CERTS (docs/configuration.md).
    socketTimeout: 30_000,
  } as Parameters<typeof nodemailer.createTransport>[1]);
  return {
    describe: `smtp ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
    async send(message) {
      const info = await transport.sendMail(message);
      return { messageId: String(info.messageId ?? message.messageId ?? '') };
    },
    close: () => transport.close(),
  };
}

/** No SMTP configured: each message becomes an .eml file in `dir` (written whole, then renamed). */
function folderMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `folder ${path.resolve(dir)}`,
    async send(message) {
      const info = await transport.sendMail(message);
      const messageId = String(info.messageId ?? message.messageId ?? '');
      const name = (messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9._-]/g, '_') || `message-${Date.now()}`) + '.eml';
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(path.join(dir, name), info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      return { messageId };
    },
    close: () => transport.close(),
  };
}

export function createMailer(options: { smtpUrl: string | null; outboxDir: string }): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl) : folderMailer(options.outboxDir);
}

/** `enquiry-12.20261124…@homecare-web.invalid.eml`, `acknowledgement-12.….eml`, `photos-12.….eml`, `stage-12.3@….eml`: the enquiry a saved message belongs to. */
const SAVED_MESSAGE = /^(?:enquiry|acknowledgement|photos|stage)-(\d+)\./;

/**
 * Deletes the messages the folder mailer saved for these enquiries (retention, erasure): with no
 * SMTP_URL each notification and photos follow-up, photos included, and each acknowledgement is a file
 * in the outbox folder.
 * Returns how many went.
 */
export async function removeSavedMessages(dir: string, enquiryIds: readonly number[]): Promise<number> {
  if (enquiryIds.length === 0) return 0;
  const ids = new Set(enquiryIds.map(String));
  const names = await readdir(dir).catch(() => [] as string[]);
  const theirs = names.filter((name) => ids.has(SAVED_MESSAGE.exec(name)?.[1] ?? ''));
  await Promise.all(theirs.map((name) => rm(path.join(dir, name), { force: true })));
  return theirs.length;
}
