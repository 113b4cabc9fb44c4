import 'server-only';
import { z } from 'zod';
import { RECAPTCHA_ACTION } from '@/lib/contact-fields';
import type { RecaptchaConfig } from '@/server/intake/enquiry-settings';

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

/**
 * What a real token looks like: base64url characters only, and some hundreds to a few thousand of them
 * (Google does not document a maximum; tokens seen in the field are 400-2,200 characters). Anything else
 * is refused without asking Google, since every assessment costs money and time.
 */
const RECAPTCHA_TOKEN_MIN_LENGTH = 100;
const RECAPTCHA_TOKEN_MAX_LENGTH = 4000;
const TOKEN_CHARACTERS = /^[A-Za-z0-9_-]+$/;

export function isPlausibleRecaptchaToken(token: string): boolean {
  return token.length >= RECAPTCHA_TOKEN_MIN_LENGTH && token.length <= RECAPTCHA_TOKEN_MAX_LENGTH && TOKEN_CHARACTERS.test(token);
}

/**
 * A 4xx from the assessment API means the request itself (the token, the key, the site key) is bad:
 * asking again will not change the answer, so the enquiry is refused. Only 429 (Google's quota) and
 * 5xx are Google's own trouble, kept as unverified like a time-out.
 */
function isRefusalStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429;
}

function assessmentEndpoint(config: RecaptchaConfig): string {
  const url = new URL(config.assessmentUrl.replace('{projectId}', encodeURIComponent(config.projectId)));
  url.searchParams.set('key', config.apiKey);
  return url.toString();
}

/**
 * Creates a reCAPTCHA Enterprise assessment over REST. A definite answer from Google refuses an
 * enquiry: an invalid token, a wrong action, or a 4xx other than 429 (the request or token is bad).
 * Time-outs, network errors, 429, 5xx and answers we cannot read come back as `unreachable`, so the
 * enquiry is kept and marked unverified. A token that cannot be real is refused without a request.
 */
export async function verifyRecaptcha(token: string, config: RecaptchaConfig, fetchImpl: typeof fetch = fetch): Promise<Verification> {
  if (!token) return { kind: 'invalid', reason: 'MISSING_TOKEN' };
  if (!isPlausibleRecaptchaToken(token)) return { kind: 'invalid', reason: 'IMPLAUSIBLE_TOKEN' };
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
  if (isRefusalStatus(response.status)) return { kind: 'invalid', reason: `HTTP_${response.status}` };
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
