import { handleContactRequest } from '@/server/enquiries/contact-handler';
import { toResponse } from '@/server/http';

// POST /api/contact (SPEC 7.1): the enquiry is committed before the 201 goes out.
export async function POST(request: Request) {
  return toResponse(await handleContactRequest(request));
}
