import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { refusedPostPages } from '@/content/contact';
import { LARGEST_BODY_BYTES } from '@/lib/enquiry-rules.mjs';
import { contactPostRefusal, refusalPage } from '@/server/edge/contact-page-post.mjs';

const form = 'multipart/form-data; boundary=----x';

describe('the form posted without JavaScript (POST /contact), judged before its body is read', () => {
  it('lets a multipart form with a length up to the largest enquiry through', () => {
    expect(contactPostRefusal({ 'content-type': form, 'content-length': '1200' })).toBeUndefined();
    expect(
      contactPostRefusal({ 'content-type': 'Multipart/Form-Data; boundary=y', 'content-length': String(LARGEST_BODY_BYTES) }),
    ).toBeUndefined();
  });

  it('refuses too large (413), not a form (415) and no length (411)', () => {
    expect(contactPostRefusal({ 'content-type': form, 'content-length': String(LARGEST_BODY_BYTES + 1) })).toEqual({
      status: 413,
      reason: 'too-large',
    });
    for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8', 'application/json', undefined])
      expect(contactPostRefusal({ 'content-type': type, 'content-length': '10' }), type).toEqual({ status: 415, reason: 'not-a-form' });
    expect(contactPostRefusal({ 'content-type': form, 'transfer-encoding': 'chunked' })).toEqual({ status: 411, reason: 'no-length' });
    expect(contactPostRefusal({ 'content-type': form, 'content-length': '12abc' })).toEqual({ status: 411, reason: 'no-length' });
  });

  it('answers with a short page in the site’s words: what happened, the way back and the telephone number', () => {
    const html = refusalPage(refusedPostPages.tooLarge, {
      back: refusedPostPages.back,
      call: refusedPostPages.call,
      phone: business.phone,
    });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`<h1>${refusedPostPages.tooLarge.title}</h1>`);
    expect(html).toContain('<a href="/contact">Back to the contact form</a>');
    expect(html).toContain(`<a href="tel:${business.phone.e164}">${business.phone.display}</a>`);
    expect(html).not.toMatch(/<script|<style/);
    expect(refusalPage({ title: '<b>', text: 'a & b' }, { back: 'x', call: 'y', phone: business.phone })).toContain('<h1>&#60;b&#62;</h1>');
  });
});
