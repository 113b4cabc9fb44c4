import 'server-only';
import { z } from 'zod';
import { RECAPTCHA_ACTION } from '@/lib/contact-rules';
import type { RecaptchaConfig } from '@/server/enquiries/config';

export type Verification =
  | { kind: 'verified'; score: number }
  | { kind: 'invalid'; reason: string }
  | { kind: 'low-score'; score: number }
  | { kind: 'unreachable'; detail: string };

// The parts of Google's Assessment we read; everything else is ignored.
const assessmentSchema = z.object({
  tokenProperties: z.object({
    valid: z.boolean(),
    invalidReason: z.string().optional(),
    action: z.string().optional(),
  }),
  riskAnalysis: z.object({ score: z.number().min(0).max(1) }).optional(),
});

export function assessmentEndpoint(config: RecaptchaConfig): string {
  const url = new URL(config.assessmentUrl.replace('{projectId}', encodeURIComponent(config.projectId)));
  url.searchParams.set('key', config.apiKey);
  return url.toString();
}

/**
 * Creates a reCAPTCHA Enterprise assessment over REST. Only a definite answer from Google refuses an
 * enquiry (invalid token, wrong action); anything else (timeout, network error, non-2xx, an answer we
 * cannot read) comes back as `unreachable` so the enquiry is kept and marked unverified.
 */
export async function verifyRecaptcha(
  token: string,
  config: RecaptchaConfig,
  fetchImpl: typeof fetch = fetch,
): Promise<Verification> {
  if (!token) return { kind: 'invalid', reason: 'MISSING_TOKEN' };
  let response: Response;
  let body: unknown;
  try {
    response = await fetchImpl(assessmentEndpoint(config), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ event: { token, siteKey: config.siteKey || undefined, expectedAction: RECAPTCHA_ACTION } }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    const detail = error instanceof Error && error.name === 'TimeoutError' ? `timeout after ${config.timeoutMs} ms` : String(error);
    return { kind: 'unreachable', detail };
  }
  if (!response.ok) return { kind: 'unreachable', detail: `HTTP ${response.status} from the assessment endpoint` };
  const parsed = assessmentSchema.safeParse(body);
  if (!parsed.success) return { kind: 'unreachable', detail: 'unreadable assessment' };
  const { tokenProperties, riskAnalysis } = parsed.data;
  if (!tokenProperties.valid) return { kind: 'invalid', reason: tokenProperties.invalidReason || 'INVALID' };
  if (tokenProperties.action !== RECAPTCHA_ACTION) return { kind: 'invalid', reason: `WRONG_ACTION:${tokenProperties.action ?? ''}` };
  const score = riskAnalysis?.score;
  if (score === undefined) return { kind: 'unreachable', detail: 'assessment without a score' };
  return score >= config.minScore ? { kind: 'verified', score } : { kind: 'low-score', score };
}
