import { describe, expect, it } from 'vitest';
import { normaliseGalleryResponse } from './normalise';

/** One received item as the gallery keeps it, or null when it is discarded. */
const one = (raw: unknown) => normaliseGalleryResponse([raw])?.items[0] ?? null;

const base = { _id: 'a1', title: 'Kitchen ceiling', category: 'Water Damage', imageUrl: '/uploads/kitchen.jpg' };

describe('item discard rules', () => {
  it('keeps a complete item', () => {
    expect(one(base)).toMatchObject({
      _id: 'a1',
      title: 'Kitchen ceiling',
      category: 'Water Damage',
      imageUrl: '/uploads/kitchen.jpg',
    });
  });
  it('discards an item lacking _id', () => {
    expect(one({ ...base, _id: undefined })).toBeNull();
    expect(one({ ...base, _id: '' })).toBeNull();
  });
  it('discards an item lacking title', () => {
    expect(one({ ...base, title: undefined })).toBeNull();
    expect(one({ ...base, title: '   ' })).toBeNull();
  });
  it('discards an item lacking all of imageUrl, s3Key and filename', () => {
    expect(one({ ...base, imageUrl: undefined })).toBeNull();
    expect(one({ ...base, imageUrl: '', s3Key: '', filename: '' })).toBeNull();
  });
  it('keeps an item with only one of imageUrl, s3Key or filename', () => {
    expect(one({ _id: 'b', title: 'T', s3Key: 'k.jpg' })?.s3Key).toBe('k.jpg');
    expect(one({ _id: 'c', title: 'T', filename: 'f.jpg' })?.filename).toBe('f.jpg');
    expect(one({ _id: 'd', title: 'T', imageUrl: '/i.jpg' })?.imageUrl).toBe('/i.jpg');
  });
  it('discards things that are not objects', () => {
    for (const raw of [null, undefined, 'x', 3, [base]]) expect(one(raw)).toBeNull();
  });
  it('treats tags as always present', () => {
    expect(one(base)?.tags).toEqual([]);
    expect(one({ ...base, tags: null })?.tags).toEqual([]);
    expect(one({ ...base, tags: ['roof', 7, '', 'slates'] })?.tags).toEqual(['roof', '7', 'slates']);
  });
  it('defaults description and mimeType to empty strings, and a missing category to the catch-all', () => {
    const item = one({ _id: 'e', title: 'T', filename: 'f.jpg' });
    expect(item).toMatchObject({ description: '', mimeType: '', category: 'Other' });
  });
  it('accepts a numeric _id', () => {
    expect(one({ ...base, _id: 42 })?._id).toBe('42');
  });
});

describe('response shapes', () => {
  it('reads { data: [...] }', () => {
    expect(normaliseGalleryResponse({ data: [base] })?.items.map((item) => item._id)).toEqual(['a1']);
  });
  it('reads a bare array', () => {
    expect(normaliseGalleryResponse([base])?.items.map((item) => item._id)).toEqual(['a1']);
  });
  it('rejects any other shape', () => {
    for (const body of [null, {}, { data: {} }, 'text', 5]) expect(normaliseGalleryResponse(body)).toBeNull();
    expect(normaliseGalleryResponse({ items: [] })).toBeNull();
  });
  it('gives the same content for both shapes', () => {
    const list = [base, { _id: 'x', title: 'no media' }];
    expect(normaliseGalleryResponse({ data: list })).toEqual(normaliseGalleryResponse(list));
    expect(normaliseGalleryResponse(list)?.items).toHaveLength(1);
  });
  it('drops a repeated _id', () => {
    expect(normaliseGalleryResponse([base, { ...base, title: 'again' }])?.items.map((item) => item.title)).toEqual(['Kitchen ceiling']);
  });
});

describe('categories', () => {
  it('are the distinct category values in order of first appearance', () => {
    const content = normaliseGalleryResponse([
      { ...base, _id: '1', category: 'Roofing' },
      { ...base, _id: '2', category: 'Kitchens' },
      { ...base, _id: '3', category: 'Roofing' },
      { ...base, _id: '4', category: 'Fire Damage' },
      { _id: '5', title: 'discarded', category: 'Ghost' },
    ]);
    expect(content?.categories).toEqual(['Roofing', 'Kitchens', 'Fire Damage']);
  });
  it('is empty for no items', () => {
    expect(normaliseGalleryResponse({ data: [] })).toEqual({ items: [], categories: [] });
  });
});
