import { receiveErrorLog } from '@/server/error-log/intake';
import { toResponse } from '@/server/base/http';

// The site's own version of the CRM's error-log endpoint, used when NEXT_PUBLIC_CRM_URL is empty.
export async function POST(request: Request) {
  return toResponse(await receiveErrorLog(request));
}
