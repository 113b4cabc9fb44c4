import { describe, expect, it, vi } from 'vitest';
import { GALLERY_IMAGE_WIDTHS } from '@/lib/gallery/image-widths';
import { gallerySrcSet, TILE_SIZES } from '@/lib/gallery/responsive-image';
import { createFirstPhotoPreload, FALLBACK_PRELOAD_WIDTH, firstPhotoPreloadLink } from './first-photo-preload';
import { parseLinkHeader } from '@/tests/support/link-header';

const crm = 'https://crm.example.com';

describe('firstPhotoPreloadLink', () => {
  it('announces the first tile’s image with the srcset and sizes the tile has, and a phone-sized URL of its own', () => {
    const link = firstPhotoPreloadLink(
      { data: [{ _id: '1', title: 'Roof', category: 'Storm Damage', imageUrl: '/photos/roof.jpg', mimeType: 'image/jpeg' }] },
      crm,
    );
    const { href, params } = parseLinkHeader(link!);
    expect(params).toEqual({
      rel: 'preload',
      as: 'image',
      fetchpriority: 'high',
      imagesrcset: gallerySrcSet(`${crm}/photos/roof.jpg`, crm),
      imagesizes: TILE_SIZES,
    });
    expect(href).toBe(`/_next/image?url=${encodeURIComponent(`${crm}/photos/roof.jpg`)}&w=${FALLBACK_PRELOAD_WIDTH}&q=60`);
    expect(GALLERY_IMAGE_WIDTHS).toContain(FALLBACK_PRELOAD_WIDTH);
  });

  it('follows the gallery’s own rules: items that would be discarded are skipped, an s3Key is a CRM image, a bare array is a list', () => {
    const link = firstPhotoPreloadLink(
      [
        { title: 'No id', imageUrl: '/a.jpg' },
        { _id: '2', title: 'Kitchen', s3Key: 'jobs/kitchen 1.jpg' },
      ],
      crm,
    );
    expect(parseLinkHeader(link!).params.imagesrcset).toBe(
      gallerySrcSet(`${crm}/api/gallery/image/${encodeURIComponent('jobs/kitchen 1.jpg')}`, crm),
    );
  });

  it('uses the stored sizes of the built-in gallery when there is no CRM', () => {
    const link = firstPhotoPreloadLink({ success: true, data: [{ _id: 'a', title: 'Slate', s3Key: 'samples/slate.jpg' }] }, '');
    const { href, params } = parseLinkHeader(link!);
    expect(href).toBe(`/api/gallery/image/samples%2Fslate.jpg?w=${FALLBACK_PRELOAD_WIDTH}`);
    expect(params.imagesrcset).toBe(gallerySrcSet('/api/gallery/image/samples%2Fslate.jpg', ''));
  });

  it('announces a built-in sample delivered as it is by its own URL, which is what its tile asks for', () => {
    const link = firstPhotoPreloadLink(
      { data: [{ _id: 'k', title: 'Kitchen', imageUrl: '/gallery/samples/kitchen-ceiling-sample.webp' }] },
      '',
    );
    expect(link).toBe('</gallery/samples/kitchen-ceiling-sample.webp>; rel=preload; as=image; fetchpriority=high');
  });

  it.each([
    ['a video first', { data: [{ _id: '1', title: 'Leak', imageUrl: '/v.mp4', mimeType: 'video/mp4' }] }, crm],
    ['an item with a file name only (no media)', { data: [{ _id: '1', title: 'Old', filename: 'x.jpg' }] }, crm],
    [
      'an image on another origin (the optimiser would refuse it)',
      { data: [{ _id: '1', title: 'T', imageUrl: 'https://elsewhere.example/p.jpg' }] },
      crm,
    ],
    ['an image URL with a query string', { data: [{ _id: '1', title: 'T', imageUrl: '/p.jpg?v=2' }] }, crm],
    ['an empty list', { data: [] }, crm],
    ['a body of another shape', { items: [] }, crm],
    ['no body', null, crm],
    [
      'a quote in a built-in URL (it would end the header’s quoted srcset)',
      { data: [{ _id: '1', title: 'T', imageUrl: '/api/gallery/image/a"b.jpg' }] },
      '',
    ],
    [
      'a line break in a built-in URL (Node refuses such a header)',
      { data: [{ _id: '1', title: 'T', imageUrl: '/api/gallery/image/a\nb.jpg' }] },
      '',
    ],
    ['a non-ASCII built-in URL', { data: [{ _id: '1', title: 'T', imageUrl: '/api/gallery/image/tő.jpg' }] }, ''],
    [
      'a built-in file whose path would close the header’s brackets',
      { data: [{ _id: '1', title: 'T', imageUrl: '/gallery/a>b.webp' }] },
      '',
    ],
    [
      'a stored-sizes URL whose path would close the header’s brackets',
      { data: [{ _id: '1', title: 'T', imageUrl: '/api/gallery/image/a>b.jpg' }] },
      '',
    ],
    ['a built-in file named by a protocol-relative URL', { data: [{ _id: '1', title: 'T', imageUrl: '//elsewhere.example/p.webp' }] }, ''],
    ['a built-in file with a space in its path', { data: [{ _id: '1', title: 'T', imageUrl: '/gallery/a b.webp' }] }, ''],
  ])('announces nothing for %s', (_case, body, base) => {
    expect(firstPhotoPreloadLink(body, base)).toBeNull();
  });
});

describe('createFirstPhotoPreload', () => {
  const list = (name: string) => ({ data: [{ _id: name, title: name, imageUrl: `/photos/${name}.jpg` }] });
  const linkFor = (name: string) => firstPhotoPreloadLink(list(name), crm);

  function setUp(options: { freshForMs?: number; usableForMs?: number; waitMs?: number } = {}) {
    let time = 0;
    const pending: { resolve: (body: unknown) => void; reject: (error: unknown) => void }[] = [];
    const loadList = vi.fn(() => new Promise<unknown>((resolve, reject) => pending.push({ resolve, reject })));
    const onError = vi.fn();
    const preload = createFirstPhotoPreload({
      loadList,
      crmBase: crm,
      freshForMs: options.freshForMs ?? 60_000,
      usableForMs: options.usableForMs ?? 600_000,
      now: () => time,
      onError,
      // A few milliseconds: the loads below answer only when the test settles them.
      waitMs: options.waitMs ?? 5,
    });
    const settle = async (outcome: { body: unknown } | { error: unknown }) => {
      const next = pending.shift()!;
      if ('body' in outcome) next.resolve(outcome.body);
      else next.reject(outcome.error);
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { preload, loadList, onError, settle, advance: (ms: number) => (time += ms) };
  }

  it('never makes a request wait for the CRM while it keeps a copy: nothing until the first load is in, and one load meanwhile', async () => {
    const { preload, loadList, settle } = setUp({ waitMs: 60_000 });
    expect(await preload.current()).toBeNull();
    expect(await preload.current()).toBeNull();
    expect(loadList).toHaveBeenCalledTimes(1);
    await settle({ body: list('first') });
    expect(await preload.current()).toBe(linkFor('first'));
    expect(loadList).toHaveBeenCalledTimes(1);
  });

  it('asks again at most once per freshForMs, answering with the copy it has while it asks', async () => {
    const { preload, loadList, settle, advance } = setUp({ freshForMs: 60_000 });
    await preload.current();
    await settle({ body: list('first') });
    advance(59_999);
    expect(await preload.current()).toBe(linkFor('first'));
    expect(loadList).toHaveBeenCalledTimes(1);
    advance(1);
    expect(await preload.current()).toBe(linkFor('first'));
    expect(await preload.current()).toBe(linkFor('first'));
    expect(loadList).toHaveBeenCalledTimes(2);
    await settle({ body: list('second') });
    expect(await preload.current()).toBe(linkFor('second'));
  });

  it('announces nothing once the CRM fails, and reports why', async () => {
    const { preload, onError, settle, advance } = setUp({ freshForMs: 1000 });
    await preload.current();
    await settle({ body: list('first') });
    advance(1000);
    await preload.current();
    await settle({ error: new Error('the CRM answered 503 for the gallery list') });
    expect(await preload.current()).toBeNull();
    expect(onError).toHaveBeenCalledWith(new Error('the CRM answered 503 for the gallery list'));
  });

  it('reports the first failure of a run of failures only, and again after the CRM has answered', async () => {
    const { preload, onError, settle, advance } = setUp({ freshForMs: 1000 });
    for (const outcome of [
      { error: new Error('down 1') },
      { error: new Error('down 2') },
      { body: list('back') },
      { error: new Error('down 3') },
    ]) {
      await preload.current();
      await settle(outcome);
      advance(1000);
    }
    expect(onError.mock.calls).toEqual([[new Error('down 1')], [new Error('down 3')]]);
  });

  it('stops announcing a copy older than usableForMs while the CRM does not answer (a photo may have been taken down)', async () => {
    const { preload, loadList, settle, advance } = setUp({ freshForMs: 60_000, usableForMs: 600_000 });
    await preload.current();
    await settle({ body: list('first') });
    advance(300_000);
    expect(await preload.current()).toBe(linkFor('first'));
    expect(loadList).toHaveBeenCalledTimes(2); // still in flight: the CRM hangs
    advance(300_000);
    expect(await preload.current()).toBeNull();
    expect(loadList).toHaveBeenCalledTimes(2);
  });

  it('keeps no copy with freshForMs 0: each request reads the list and waits for it, so it sees the list as it is now', async () => {
    const { preload, loadList, settle, advance } = setUp({ freshForMs: 0, waitMs: 60_000 });
    const first = preload.current();
    await settle({ body: list('first') });
    expect(await first).toBe(linkFor('first'));
    advance(1);
    const second = preload.current();
    await settle({ body: list('second') });
    expect(await second).toBe(linkFor('second'));
    expect(loadList).toHaveBeenCalledTimes(2);
  });

  it('with freshForMs 0, a list slower than waitMs is not waited for: the request answers with what it has', async () => {
    const { preload, loadList, settle, advance } = setUp({ freshForMs: 0, waitMs: 5 });
    expect(await preload.current()).toBeNull();
    await settle({ body: list('first') });
    advance(1);
    expect(await preload.current()).toBe(linkFor('first'));
    expect(loadList).toHaveBeenCalledTimes(2);
  });
});
