// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_FIELDS } from '@/lib/contact-fields';
import { clearDraft, loadDraftFields, loadDraftPhotos, saveDraftFields } from '@/lib/contact-draft';
import { newEnquiryKey } from '@/lib/enquiry-key';

const values = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };
const fields = { ...EMPTY_FIELDS, ...values };
const KEY = 'homecare:enquiry-draft';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('the draft kept on the device', () => {
  it('keeps what was typed and gives it back', () => {
    const withClaim = { ...fields, postcode: 'G67 1AB' };
    saveDraftFields({ savedAt: 1_000, fields: withClaim, claimOpen: true });
    expect(loadDraftFields(2_000)).toEqual({ savedAt: 1_000, fields: withClaim, claimOpen: true });
  });

  it('gives back a draft kept when the fields were two records, `values` and `claim`', () => {
    const claim = Object.fromEntries(
      Object.keys(EMPTY_FIELDS)
        .filter((field) => !(field in values))
        .map((field) => [field, '']),
    );
    localStorage.setItem(KEY, JSON.stringify({ savedAt: 1_000, values, claim: { ...claim, postcode: 'G67 1AB' }, claimOpen: true }));
    expect(loadDraftFields(2_000)).toEqual({ savedAt: 1_000, fields: { ...fields, postcode: 'G67 1AB' }, claimOpen: true });
  });

  it("keeps the enquiry's key with it; a stored key that is not one is left out", () => {
    const enquiryKey = newEnquiryKey();
    saveDraftFields({ savedAt: 1_000, fields, claimOpen: false, enquiryKey });
    expect(loadDraftFields(2_000)?.enquiryKey).toBe(enquiryKey);
    localStorage.setItem(KEY, JSON.stringify({ savedAt: 1_000, fields, enquiryKey: '<script>' }));
    expect(loadDraftFields(2_000)).toEqual({ savedAt: 1_000, fields, claimOpen: false });
  });

  it('keeps nothing for an empty form, and forgets one older than a day', () => {
    saveDraftFields({
      savedAt: 1_000,
      fields: { ...fields, name: '', email: '', subject: '', message: ' ' },
      claimOpen: false,
    });
    expect(localStorage.getItem(KEY)).toBeNull();
    saveDraftFields({ savedAt: 1_000, fields, claimOpen: false });
    expect(loadDraftFields(1_000 + 24 * 60 * 60_000 + 1)).toBeNull();
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('what is not the form’s draft is dropped: not JSON, wrong types, values too long, a time in the future', () => {
    for (const stored of [
      '{not json',
      JSON.stringify({ savedAt: 1_000, fields: { ...fields, name: 42 } }),
      JSON.stringify({ savedAt: 1_000, fields: { ...fields, message: 'x'.repeat(10_001) } }),
      JSON.stringify({ savedAt: 1_000, values: { ...values, name: 42 }, claim: {} }),
      JSON.stringify({ savedAt: '1000', fields }),
      JSON.stringify({ savedAt: 10_000_000, fields }),
      'null',
    ]) {
      localStorage.setItem(KEY, stored);
      expect(loadDraftFields(2_000), stored.slice(0, 40)).toBeNull();
    }
  });

  it('a storage that refuses writes or reads means no draft, never an error', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(() => saveDraftFields({ savedAt: 1_000, fields, claimOpen: false })).not.toThrow();
    expect(loadDraftFields(2_000)).toBeNull();
    await expect(clearDraft()).resolves.toBeUndefined();
  });

  it('without IndexedDB there are no kept photos', async () => {
    expect(await loadDraftPhotos()).toEqual([]);
  });
});
