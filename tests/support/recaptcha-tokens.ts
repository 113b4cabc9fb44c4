/**
 * Test tokens shaped like real reCAPTCHA Enterprise tokens (base64url, a few hundred characters), so
 * they pass the server's plausibility check and reach the assessment fake, which reads the scenario
 * back out of them: `03AFcWeA_<scenario>_<serial>xxxx…`.
 */
export const RECAPTCHA_TEST_TOKEN_LENGTH = 480;

export function recaptchaTestToken(scenario: string, serial: string | number = ''): string {
  return `03AFcWeA_${scenario}_${serial}`.padEnd(RECAPTCHA_TEST_TOKEN_LENGTH, 'x');
}

/** The scenario a test token carries, or '' for any other token. */
export function recaptchaTestScenario(token: string): string {
  return /^03AFcWeA_([a-z-]+)_/.exec(token)?.[1] ?? '';
}
