import 'server-only';
import { getDb } from '@/server/db';
import { loadEnquiryConfig } from '@/server/enquiries/config';
import { createMailer } from '@/server/enquiries/mailer';
import { createOutboxWorker, type OutboxWorker } from '@/server/enquiries/outbox-worker';

// One worker per server process, kept on globalThis so a second import of this module (Next may
// bundle it into more than one chunk) finds the same one.
const KEY = Symbol.for('homecare.enquiries.outboxWorker');
type Holder = { [KEY]?: Promise<OutboxWorker> };

/** Starts the outbox worker of this process (from instrumentation.ts); idempotent. */
export function startOutboxWorker(): Promise<OutboxWorker> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const config = loadEnquiryConfig();
    const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir });
    const worker = createOutboxWorker({ db: await getDb(), mailer, from: config.from, to: config.to, pollMs: config.pollMs });
    worker.start();
    console.log(`[outbox] delivering enquiry notifications to ${config.to} via ${mailer.describe}`);
    return worker;
  })();
  return holder[KEY];
}

/** After an enquiry is committed: deliver now rather than at the next poll (no-op without a worker). */
export function wakeOutboxWorker(): void {
  void (globalThis as Holder)[KEY]?.then((worker) => worker.wake(), () => undefined);
}
