// A fake for the company's CRM receiving the site's webhooks: a local HTTP server that checks each
// event's Standard Webhooks signature and answers what a test tells it to (or is not listening at all).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, webhookKey } from '@/server/crm/standard-webhooks';
import { testWebhookSecret } from './webhook-secret';

export type ReceivedWebhook = {
  id: string;
  signed: boolean;
  body: string;
  event: { type: string; version: number; timestamp: string; data: Record<string, unknown> };
};

export { testWebhookSecret };

export async function startWebhookReceiver(options: { secret?: string; port?: number } = {}) {
  const key = webhookKey(options.secret ?? testWebhookSecret);
  const received: ReceivedWebhook[] = [];
  let answer: { status: number; headers?: Record<string, string> } = { status: 204 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = { get: (name: string) => (request.headers[name] as string | undefined) ?? null };
      const verified = verifyWebhook(key, headers, body);
      received.push({
        id: String(request.headers['webhook-id']),
        signed: verified.ok,
        body,
        event: JSON.parse(body) as ReceivedWebhook['event'],
      });
      response.writeHead(answer.status, answer.headers ?? {});
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/homecare`,
    received,
    answerWith(status: number, headers?: Record<string, string>) {
      answer = { status, headers };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
