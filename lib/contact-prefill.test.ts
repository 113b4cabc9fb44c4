import { describe, expect, it } from 'vitest';
import { contactHref, contactPrefillOf } from '@/lib/contact-prefill';

const prefill = (search: string) => contactPrefillOf(new URLSearchParams(search));

describe('contactHref', () => {
  it('names the type of damage, the role, or only opens the claim part', () => {
    expect(contactHref({ damageType: 'storm-weather' })).toBe('/contact?damage=storm-weather');
    expect(contactHref({ claimRole: 'loss-adjuster' })).toBe('/contact?role=loss-adjuster');
    expect(contactHref({ damageType: null })).toBe('/contact?claim=open');
  });

  it('gives back what it was given', () => {
    expect(prefill(new URL(contactHref({ damageType: 'fire-smoke' }), 'https://x.test').search)).toEqual({
      fields: { damageType: 'fire-smoke' },
    });
    expect(prefill(new URL(contactHref({ claimRole: 'insurer' }), 'https://x.test').search)).toEqual({ fields: { claimRole: 'insurer' } });
    expect(prefill(new URL(contactHref(), 'https://x.test').search)).toEqual({ fields: {} });
  });
});

describe('contactPrefillOf', () => {
  it('takes a type of damage and a role the form offers', () => {
    expect(prefill('?damage=water-damage&role=homeowner')).toEqual({ fields: { damageType: 'water-damage', claimRole: 'homeowner' } });
  });

  it('ignores values the form does not offer', () => {
    expect(prefill('?damage=meteorite')).toBeNull();
    expect(prefill('?damage=<script>&role=admin')).toBeNull();
    expect(prefill('?damage=WATER-DAMAGE')).toBeNull();
    expect(prefill('?role=insurer&damage=nonsense')).toEqual({ fields: { claimRole: 'insurer' } });
  });

  it('asks nothing of a plain visit or of unrelated parameters', () => {
    expect(prefill('')).toBeNull();
    expect(prefill('?utm_source=google')).toBeNull();
  });
});
