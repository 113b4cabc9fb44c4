/** The secret the site signs its webhooks with in tests (whsec_ and base64 of 30 bytes); no imports, so the Playwright config can read it. */
export const testWebhookSecret = 'whsec_dGVzdC13ZWJob29rLXNlY3JldC0xMjM0NTY3OA==';
