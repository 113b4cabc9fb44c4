import { ENQUIRY_TEXT_MAX_BYTES, MULTIPART_FRAMING_BYTES, uploadDeadlineMs } from '@/lib/enquiry-rules.mjs';

/** After its body, how long a send waits for the site's answer before it counts as none. */
const ANSWER_WAIT_MS = 60_000;

/**
 * How long one send of a request carrying these photos may take: as long as the site waits for a body
 * of at most that size at the slowest rate it takes, and then for the answer. A send cut off sooner
 * would give up on an honest slow phone; one never cut off would hold every later round behind an
 * answer lost on the way back.
 */
export const sendDeadlineMs = (photoBytes: number) =>
  uploadDeadlineMs(photoBytes + ENQUIRY_TEXT_MAX_BYTES + MULTIPART_FRAMING_BYTES) + ANSWER_WAIT_MS;
