import { handleContactRequest } from '@/server/enquiries/contact-handler';

// POST /api/contact (SPEC 7.1): the enquiry is committed before the 201 goes out.
export async function POST(request: Request) {
  const { status, body, headers } = await handleContactRequest(request);
  return Response.json(body, { status, headers });
}
