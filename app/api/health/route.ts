import { webhooksConfigured } from '@/server/crm/webhook-status';
import { getDb } from '@/server/base/db';
import { checkEnquiryHealth, configuredPhotoStorage, configuredPrivateFilesCheck, publicHealth } from '@/server/reports/health';
import { runningOutboxWorker } from '@/server/background';

export const dynamic = 'force-dynamic';

// GET /api/health for an uptime monitor: 200 when enquiries are reaching the company, else 503.
export async function GET() {
  const worker = await runningOutboxWorker()?.catch(() => undefined);
  const { status, body } = publicHealth(
    await checkEnquiryHealth(getDb, {
      worker: worker?.state() ?? null,
      photoStorage: configuredPhotoStorage(),
      privateFiles: configuredPrivateFilesCheck(),
      webhooks: webhooksConfigured(),
    }),
  );
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}
