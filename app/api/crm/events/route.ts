import { handleCrmEventRequest } from '@/server/crm/crm-events';
import { toResponse } from '@/server/base/http';

// POST /api/crm/events: a claim's stage moved by the company's CRM (signed; off without CRM_EVENTS_SECRET).
export async function POST(request: Request) {
  return toResponse(await handleCrmEventRequest(request));
}
