import { describe, expect, it } from 'vitest';
import { CLAIM_FORM_MAX_BYTES, claimFormPostRefusal, isClaimFormPath, isSignedLinkPath } from '@/server/claim-pages.mjs';

describe('the claim pages as server.mjs sees them', () => {
  it('knows the paths that carry a signed link, and the ones a claim form posts to', () => {
    expect(isSignedLinkPath('/track/12.abc')).toBe(true);
    expect(isSignedLinkPath('/claim-update/12.abc')).toBe(true);
    for (const other of ['/track', '/track/', '/track/a/b', '/claim-update', '/contact']) expect(isSignedLinkPath(other)).toBe(false);
    expect(isClaimFormPath('/track')).toBe(true);
    expect(isClaimFormPath('/claim-update/12.abc')).toBe(true);
    // The customer's status page has no form: nothing is posted to it.
    expect(isClaimFormPath('/track/12.abc')).toBe(false);
    expect(isClaimFormPath('/claim-update/12.abc/x')).toBe(false);
  });

  it('takes a small multipart form with its length declared, and nothing else', () => {
    const form = { 'content-type': 'multipart/form-data; boundary=x' };
    expect(claimFormPostRefusal({ ...form, 'content-length': '900' })).toBeUndefined();
    expect(claimFormPostRefusal({ ...form, 'content-length': String(CLAIM_FORM_MAX_BYTES + 1) })).toEqual({ status: 413 });
    expect(claimFormPostRefusal({ ...form, 'transfer-encoding': 'chunked' })).toEqual({ status: 411 });
    expect(claimFormPostRefusal({ 'content-type': 'application/json', 'content-length': '10' })).toEqual({ status: 415 });
  });
});
