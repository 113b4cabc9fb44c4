import { receiveErrorLog } from '@/server/error-log-intake';

// The built-in stand-in for the CRM's error-log endpoint, used when NEXT_PUBLIC_CRM_URL is empty.
export async function POST(request: Request) {
  const { status, body, headers } = await receiveErrorLog(request);
  return Response.json(body, { status, headers });
}
