// Real local peers for the enquiry integration tests: an SMTP server and a reCAPTCHA assessment fake.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { openDatabase } from '@/server/base/db';
import { recaptchaTestScenario } from '@/tests/support/recaptcha-tokens';

export { startSmtpServer, type ReceivedMail } from '@/scripts/support/smtp-server';

/** A port nothing listens on (taken and released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type AssessmentRequest = { url: string; body: unknown };

/**
 * Stands in for recaptchaenterprise.googleapis.com: the scenario in the token (recaptchaTestToken)
 * decides the answer.
 *   valid → valid, action contact_form, score 0.9    wrong-action → valid, action login
 *   low-score → score 0.1    invalid → valid false (MALFORMED)    slow → answers after 2 s
 *   server-error → 503    rate-limited → 429    bad-request → 400    forbidden → 403
 */
export async function startFakeAssessment(port = 0): Promise<{ url: string; requests: AssessmentRequest[]; close: () => Promise<void> }> {
  const requests: AssessmentRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { event?: { token?: string; expectedAction?: string } };
      requests.push({ url: request.url ?? '', body });
      const token = recaptchaTestScenario(body.event?.token ?? '');
      const answer = (status: number, value: unknown) => {
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const assessment = (valid: boolean, action: string, score: number, invalidReason = 'INVALID_REASON_UNSPECIFIED') =>
        answer(200, {
          name: 'projects/123/assessments/abc',
          event: body.event,
          tokenProperties: { valid, invalidReason, action, hostname: 'localhost', createTime: new Date().toISOString() },
          riskAnalysis: { score, reasons: [] },
        });
      if (token === 'valid') return assessment(true, 'contact_form', 0.9);
      if (token === 'wrong-action') return assessment(true, 'login', 0.9);
      if (token === 'low-score') return assessment(true, 'contact_form', 0.1);
      if (token === 'invalid') return assessment(false, '', 0, 'MALFORMED');
      if (token === 'slow') return void setTimeout(() => assessment(true, 'contact_form', 0.9), 2000);
      if (token === 'server-error') return answer(503, { error: { code: 503, message: 'unavailable' } });
      if (token === 'rate-limited') return answer(429, { error: { code: 429, message: 'quota exceeded' } });
      if (token === 'bad-request') return answer(400, { error: { code: 400, message: 'Request contains an invalid argument.' } });
      if (token === 'forbidden') return answer(403, { error: { code: 403, message: 'API key not valid.' } });
      return assessment(false, '', 0, 'MALFORMED');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const listening = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${listening}/v1/projects/{projectId}/assessments`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A database with every migration applied, made once per process: each test's database starts as a
 * copy of its file, which costs a millisecond where applying the migrations again costs about 100 ms of
 * CPU (over a thousand unit tests open one). Its folder is removed when the process exits.
 */
let migratedTemplate: Promise<string> | undefined;
function templateFile(): Promise<string> {
  migratedTemplate ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'homecare-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'site.db');
    const db = await openDatabase(`file:${file}`);
    // Everything in the main file, so a copy of that file alone is the whole database.
    await db.execute('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    return file;
  })();
  return migratedTemplate;
}

/** A migrated database in a fresh temporary folder. */
export async function tempDatabase(): Promise<{ url: string; db: Client; dir: string; cleanup: () => void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'homecare-enquiries-'));
  copyFileSync(await templateFile(), path.join(dir, 'site.db'));
  const url = `file:${path.join(dir, 'site.db')}`;
  // Opened as the site opens it: WAL, and the migrations checked (none left to apply).
  const db = await openDatabase(url);
  return {
    url,
    db,
    dir,
    cleanup: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let addressCounter = 0;
/** A POST /api/contact request as server.mjs hands it to Next (client address header set). */
export function contactRequest(
  body: unknown,
  options: { address?: string; contentType?: string; raw?: string; cookie?: string } = {},
): Request {
  addressCounter += 1;
  return new Request('http://127.0.0.1/api/contact', {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'x-homecare-client-address': options.address ?? `10.0.${Math.floor(addressCounter / 250) % 250}.${addressCounter % 250}`,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.raw ?? JSON.stringify(body),
  });
}
