// What the office and the sender see in the e-mails: no character a visitor typed can reorder or hide
// text in a header or the body, and names in any script arrive as typed.
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { acknowledgementEmail } from '@/server/delivery/acknowledgement-email';
import { notificationEmail, type EnquiryForEmail } from '@/server/delivery/notification-email';

const enquiry: EnquiryForEmail = {
  id: 7,
  reference: 'HC-7KQ-4MP',
  claimRole: null,
  insurer: null,
  claimReference: null,
  damageDate: null,
  damageType: null,
  postcode: null,
  worsening: null,
  habitable: null,
  vulnerable: null,
  policyholderName: null,
  policyholderPhone: null,
  propertyAddress: null,
  vatRegistered: null,
  excess: null,
  desktopAssessment: null,
  noPhoneCalls: null,
  supportNeeds: null,
  sentFrom: null,
  landingPage: null,
  referrer: null,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  receivedAt: '2026-01-05T09:00:00.000Z',
  name: 'Jo Bloggs',
  email: 'jo@example.com',
  phone: null,
  subject: 'Roof leak',
  message: 'Water is coming in.',
  verification: 'verified',
  verificationDetail: null,
};

const options = { from: 'website@homecare.test', to: 'office@homecare.test' };
// Bidirectional controls and zero-width characters, as they would arrive from a row stored before the
// form's filter removed them.
const HIDDEN = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
const BIDI = ['202A', '202B', '202C', '202D', '202E', '2066', '2067', '2068', '2069', '200E', '200F', '061C'];

async function decodedHeaders(message: ReturnType<typeof notificationEmail>) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(message);
  const raw = (info.message as Buffer).toString('utf8');
  // RFC 2047 words decoded, so what a mail client shows is what is checked.
  const headers = raw.slice(0, raw.indexOf('\n\n')).replace(/\n\s+/g, ' ');
  return headers.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_all, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

describe('no direction or zero-width trick reaches the office', () => {
  it.each(BIDI)('U+%s is removed from the Subject, the Reply-To name and the body', async (code) => {
    const control = String.fromCharCode(parseInt(code, 16));
    const hostile = {
      ...enquiry,
      name: `Jo ${control}Bloggs`,
      subject: `Roof ${control}gpj.exe${control}`,
      message: `See ${control}gpj.exe`,
    };
    const message = notificationEmail(hostile, options);
    expect(message.subject).toBe('Enquiry HC-7KQ-4MP: Roof gpj.exe');
    expect(message.replyTo).toEqual({ name: 'Jo Bloggs', address: 'jo@example.com' });
    expect(String(message.text)).not.toMatch(HIDDEN);
    expect(String(message.text)).toContain('Subject:  Roof gpj.exe');
    const headers = await decodedHeaders(message);
    expect(headers).toContain('Roof gpj.exe');
    expect(headers).not.toMatch(HIDDEN);
  });

  it('removes zero-width characters from headers and body', () => {
    const hostile = { ...enquiry, name: '\u200BJo\uFEFF', subject: 'in\u200Bvoice\u2060', message: 'pay\u200B now' };
    const message = notificationEmail(hostile, options);
    expect(message.subject).toBe('Enquiry HC-7KQ-4MP: invoice');
    expect(message.replyTo).toEqual({ name: 'Jo', address: 'jo@example.com' });
    expect(String(message.text)).toContain('pay now');
  });

  it.each(['محمد', 'שלום', 'Łukasz Żółć', 'Seònaid NicAoidh', 'می‌خواهم', '👩‍👩‍👧‍👦'])('keeps %s as typed', async (name) => {
    const message = notificationEmail({ ...enquiry, name, subject: `Roof leak at ${name}'s` }, options);
    expect(message.replyTo).toEqual({ name, address: 'jo@example.com' });
    expect(message.subject).toBe(`Enquiry HC-7KQ-4MP: Roof leak at ${name}'s`);
    expect(String(message.text)).toContain(`Name:     ${name}\n`);
    expect(await decodedHeaders(message)).toContain(name);
  });

  it('the acknowledgement goes through the same filter', () => {
    const message = acknowledgementEmail(enquiry, { from: 'website@homecare.test', replyTo: 'office@homecare.test' });
    expect(String(message.subject)).not.toMatch(HIDDEN);
    expect(String(message.text)).toContain('HC-7KQ-4MP');
  });
});
