import { describe, expect, it } from 'vitest';
import {
  CLAIM_FORM_MAX_BYTES,
  claimFormPostRefusal,
  isClaimFormPath,
  isClaimPagePath,
  isSignedLinkPath,
} from '@/server/edge/claim-page-rules.mjs';

describe('the claim pages as server.mjs sees them', () => {
  it('knows the paths that carry a signed link, and the ones a claim form posts to', () => {
    expect(isSignedLinkPath('/track/12.abc')).toBe(true);
    expect(isSignedLinkPath('/claim-update/12.abc')).toBe(true);
    expect(isSignedLinkPath('/verify/12.abc')).toBe(true);
    for (const other of ['/track', '/track/', '/track/a/b', '/claim-update', '/verify', '/verify/12.abc/x', '/contact'])
      expect(isSignedLinkPath(other)).toBe(false);
    expect(isClaimFormPath('/track')).toBe(true);
    expect(isClaimFormPath('/claims/HC-ABC-DEF/update')).toBe(true);
    expect(isClaimFormPath('/claims/HC-ABC-DEF/electricity.pdf')).toBe(true);
    // The customer's status page: an instruction's sender confirms it there.
    expect(isClaimFormPath('/claims/HC-ABC-DEF')).toBe(true);
    // The links answer a GET only.
    for (const other of [
      '/claim-update/12.abc',
      '/track/12.abc',
      '/claims/HC-ABC-DEF/update/x',
      '/claims/HC-ABC-DEF/certificate.pdf',
      '/claims//electricity.pdf',
    ])
      expect(isClaimFormPath(other)).toBe(false);
    expect(isClaimPagePath('/claims/HC-ABC-DEF')).toBe(true);
    expect(isClaimPagePath('/claims/HC-ABC-DEF/update')).toBe(true);
    for (const other of ['/claims', '/claims/', '/claims/HC-ABC-DEF/x', '/track/12.abc']) expect(isClaimPagePath(other)).toBe(false);
  });

  it('takes a small multipart form with its length declared, and nothing else', () => {
    const form = { 'content-type': 'multipart/form-data; boundary=x' };
    expect(claimFormPostRefusal({ ...form, 'content-length': '900' })).toBeUndefined();
    expect(claimFormPostRefusal({ ...form, 'content-length': String(CLAIM_FORM_MAX_BYTES + 1) })).toEqual({ status: 413 });
    expect(claimFormPostRefusal({ ...form, 'transfer-encoding': 'chunked' })).toEqual({ status: 411 });
    expect(claimFormPostRefusal({ 'content-type': 'application/json', 'content-length': '10' })).toEqual({ status: 415 });
  });
});
