import { handleContactRequest } from '@/server/intake/contact-handler';
import { toResponse } from '@/server/base/http';

// POST /api/contact, the contact form's enquiry: committed before the 201 goes out.
export async function POST(request: Request) {
  return toResponse(await handleContactRequest(request));
}
