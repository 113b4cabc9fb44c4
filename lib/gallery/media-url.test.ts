import { describe, expect, it } from 'vitest';
import { mediaOf, mediaUrl } from './media-url';

const crm = 'https://crm.example.com';

describe('media URL rule', () => {
  it('imageUrl: the CRM base plus that path', () => {
    expect(mediaUrl({ imageUrl: '/uploads/a.jpg', s3Key: 'ignored.jpg' }, crm)).toBe('https://crm.example.com/uploads/a.jpg');
  });
  it('imageUrl with an empty base stays a same-origin path', () => {
    expect(mediaUrl({ imageUrl: '/gallery/a.webp' }, '')).toBe('/gallery/a.webp');
  });
  it('imageUrl without a leading slash still joins with one', () => {
    expect(mediaUrl({ imageUrl: 'uploads/a.jpg' }, `${crm}/`)).toBe('https://crm.example.com/uploads/a.jpg');
  });
  it('an absolute imageUrl is used as it is', () => {
    expect(mediaUrl({ imageUrl: 'https://cdn.example.com/a.jpg' }, crm)).toBe('https://cdn.example.com/a.jpg');
  });
  it('s3Key: {base}/api/gallery/image/{s3Key}, encoded', () => {
    expect(mediaUrl({ s3Key: 'gallery/roof job 1.jpg' }, crm)).toBe(
      'https://crm.example.com/api/gallery/image/gallery%2Froof%20job%201.jpg',
    );
    expect(mediaUrl({ s3Key: 'a.jpg' }, '')).toBe('/api/gallery/image/a.jpg');
  });
  it('neither: no media', () => {
    expect(mediaUrl({}, crm)).toBeNull();
  });
});

describe('mediaOf', () => {
  it('is a video when the type starts with video/', () => {
    expect(mediaOf({ s3Key: 'clip.mp4', mimeType: 'video/mp4' }, crm)).toEqual({
      kind: 'video',
      src: 'https://crm.example.com/api/gallery/image/clip.mp4',
      type: 'video/mp4',
    });
  });
  it('is an image otherwise', () => {
    expect(mediaOf({ imageUrl: '/a.jpg', mimeType: 'image/jpeg' }, crm)).toEqual({ kind: 'image', src: 'https://crm.example.com/a.jpg' });
    expect(mediaOf({ imageUrl: '/a.jpg', mimeType: '' }, crm).kind).toBe('image');
  });
  it('is none for a filename-only item, even a video one', () => {
    expect(mediaOf({ mimeType: 'video/mp4' }, crm)).toEqual({ kind: 'none' });
  });
  it('a video with a posterUrl gets its still frame, found like an imageUrl', () => {
    expect(mediaOf({ s3Key: 'clip.mp4', mimeType: 'video/mp4', posterUrl: '/frames/clip.jpg' }, crm)).toEqual({
      kind: 'video',
      src: 'https://crm.example.com/api/gallery/image/clip.mp4',
      type: 'video/mp4',
      poster: 'https://crm.example.com/frames/clip.jpg',
    });
    expect(mediaOf({ imageUrl: '/a.jpg', mimeType: 'image/jpeg', posterUrl: '/frames/a.jpg' }, crm)).toEqual({
      kind: 'image',
      src: 'https://crm.example.com/a.jpg',
    });
  });
});
