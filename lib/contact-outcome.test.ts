import { describe, expect, it } from 'vitest';
import { contactOutcome } from '@/lib/contact-outcome';

describe('the contact form: every row of the catalogue of messages', () => {
  it('HTTP 429: Too many requests. Please try again later.', () => {
    expect(contactOutcome({ status: 429, body: { success: false, message: 'Slow down' } })).toEqual({
      kind: 'error',
      message: 'Too many requests. Please try again later.',
      fieldErrors: {},
    });
    expect(contactOutcome({ status: 429, body: undefined })).toMatchObject({ message: 'Too many requests. Please try again later.' });
  });

  it("otherwise the server's message if present", () => {
    expect(contactOutcome({ status: 400, body: { success: false, message: 'The reCAPTCHA token is missing.' } })).toEqual({
      kind: 'error',
      message: 'The reCAPTCHA token is missing.',
      fieldErrors: {},
    });
    expect(contactOutcome({ status: 503, body: { message: 'Down for maintenance' } })).toMatchObject({ message: 'Down for maintenance' });
  });

  it('otherwise: Failed to send message. Please try again or contact us directly.', () => {
    for (const response of [
      { status: 500, body: 'Internal Server Error' },
      { status: 502, body: undefined },
      { status: 400, body: { success: false, message: '   ' } },
      { status: 'no-answer' as const },
    ]) {
      expect(contactOutcome(response)).toEqual({
        kind: 'error',
        message: 'Failed to send message. Please try again or contact us directly.',
        fieldErrors: {},
      });
    }
  });

  it('success false without a message: Failed to send message', () => {
    expect(contactOutcome({ status: 200, body: { success: false } })).toEqual({
      kind: 'error',
      message: 'Failed to send message',
      fieldErrors: {},
    });
  });

  it('success false with a message is a failure carrying the server message', () => {
    expect(contactOutcome({ status: 200, body: { success: false, message: 'Not today' } })).toMatchObject({
      kind: 'error',
      message: 'Not today',
    });
  });

  it('success default message: Your message has been sent successfully!', () => {
    expect(contactOutcome({ status: 201, body: { success: true } })).toEqual({
      kind: 'success',
      message: 'Your message has been sent successfully!',
    });
    expect(contactOutcome({ status: 200, body: undefined })).toEqual({
      kind: 'success',
      message: 'Your message has been sent successfully!',
    });
  });

  it("success shows the server's message when it has one", () => {
    expect(contactOutcome({ status: 201, body: { success: true, message: 'Thanks, we will call you back.' } })).toEqual({
      kind: 'success',
      message: 'Thanks, we will call you back.',
    });
  });

  it('field errors from the server go to the matching fields, unknown paths are ignored', () => {
    expect(
      contactOutcome({
        status: 422,
        body: {
          success: false,
          message: 'Please correct the highlighted fields.',
          errors: [
            { path: 'email', msg: 'Please enter a valid email address' },
            { path: 'email', msg: 'second one ignored' },
            { path: ['subject'], msg: 'Subject must be at least 5 characters long' },
            { path: 'nonsense', msg: 'dropped' },
            { path: 'name' },
          ],
        },
      }),
    ).toEqual({
      kind: 'error',
      message: 'Please correct the highlighted fields.',
      fieldErrors: { email: 'Please enter a valid email address', subject: 'Subject must be at least 5 characters long' },
    });
  });
});

describe('a proxy that refuses or drops an upload with photos answers with its own page', () => {
  const notSent =
    'Your photos could not be sent, so your enquiry has not reached us yet. Everything you entered is still here: please try again, or remove the photos and send your message without them.';

  it.each([413, 502, 504])('HTTP %i without the site’s JSON, photos sent: the photos could not be sent', (status) => {
    expect(contactOutcome({ status, body: undefined }, { sentPhotos: true })).toEqual({ kind: 'error', message: notSent, fieldErrors: {} });
  });

  it('the same answers without photos keep the generic failure message', () => {
    expect(contactOutcome({ status: 413, body: undefined })).toMatchObject({
      message: 'Failed to send message. Please try again or contact us directly.',
    });
    expect(contactOutcome({ status: 502, body: undefined }, { sentPhotos: false })).toMatchObject({
      message: 'Failed to send message. Please try again or contact us directly.',
    });
  });

  it('the site’s own refusals and 429 keep their messages when photos were sent', () => {
    expect(
      contactOutcome({ status: 422, body: { success: false, message: 'Please correct the highlighted fields.' } }, { sentPhotos: true }),
    ).toMatchObject({
      message: 'Please correct the highlighted fields.',
    });
    expect(contactOutcome({ status: 429, body: undefined }, { sentPhotos: true })).toMatchObject({
      message: 'Too many requests. Please try again later.',
    });
  });
});
