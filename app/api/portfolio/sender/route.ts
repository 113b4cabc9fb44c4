import { createSenderAnswer } from '@/server/portfolio/signed-in-sender';

export const dynamic = 'force-dynamic';

// Who the portfolio's cookie signs in, for the contact form's "Sending as …".
export const GET = createSenderAnswer();
