// What the phone keeps of a claim, and for how long: pure rules the service worker applies.
import { describe, expect, it } from 'vitest';
import {
  KEPT_CLAIM_MAX_AGE_MS,
  REFUSED_CLAIM_KEPT_MS,
  outcomesToShow,
  tooOldToSend,
  type ClaimOutcome,
  type KeptClaim,
} from '@/lib/offline/protocol';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const claim = (key: string, keptAt: number): KeptClaim => ({
  enquiryKey: key,
  endpoint: '/api/contact',
  fields: {},
  photos: [],
  urgent: false,
  keptAt,
});

describe('claims kept on the phone', () => {
  it('are sent for 30 days; older, they are deleted unsent', () => {
    expect(KEPT_CLAIM_MAX_AGE_MS).toBe(30 * 24 * 60 * 60_000);
    const claims = [
      claim('young', NOW - 60_000),
      claim('edge', NOW - KEPT_CLAIM_MAX_AGE_MS + 1),
      claim('old', NOW - KEPT_CLAIM_MAX_AGE_MS),
    ];
    expect(tooOldToSend(claims, NOW).map((each) => each.enquiryKey)).toEqual(['old']);
  });

  it('leave a refused claim’s words for a day and its notice until a page shows it, as a sent or deleted one’s', () => {
    expect(REFUSED_CLAIM_KEPT_MS).toBe(24 * 60 * 60_000);
    const refused = (key: string, at: number): ClaimOutcome => ({
      kind: 'refused',
      enquiryKey: key,
      message: 'x',
      fieldErrors: {},
      claim: claim(key, at),
      at,
    });
    const outcomes: ClaimOutcome[] = [
      refused('fresh', NOW - REFUSED_CLAIM_KEPT_MS + 1),
      refused('stale', NOW - REFUSED_CLAIM_KEPT_MS),
      { kind: 'sent', enquiryKey: 'sent', urgent: false, at: NOW - 40 * 24 * 60 * 60_000 },
      { kind: 'expired', enquiryKey: 'expired', keptAt: NOW - KEPT_CLAIM_MAX_AGE_MS, at: NOW - 2 * REFUSED_CLAIM_KEPT_MS },
    ];
    const shown = outcomesToShow(outcomes, NOW);
    // Every notice stays until a page shows it; a refused claim's words only for the day.
    expect(shown.map((outcome) => outcome.enquiryKey)).toEqual(['fresh', 'stale', 'sent', 'expired']);
    expect(shown[0]).toBe(outcomes[0]);
    expect(shown[1]).toMatchObject({ kind: 'refused', wordsDropped: true, fieldErrors: {}, claim: { fields: {}, photos: [] } });
    expect(shown.slice(2)).toEqual(outcomes.slice(2));
  });
});
