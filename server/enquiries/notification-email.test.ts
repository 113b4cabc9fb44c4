import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { describe, expect, it } from 'vitest';
import { headerText, isSafeReplyAddress, notificationEmail, type EnquiryForEmail } from '@/server/enquiries/notification-email';

const enquiry: EnquiryForEmail = {
  id: 7,
  receivedAt: '2026-01-05T09:00:00.000Z',
  name: 'Jo Bloggs',
  email: 'jo@example.com',
  phone: null,
  subject: 'Roof leak',
  message: 'Water is coming in.\nPlease call.',
  verification: 'verified',
};

async function raw(input: EnquiryForEmail): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(notificationEmail(input, { from: 'website@homecare.test', to: 'office@homecare.test' }));
  return (info.message as Buffer).toString('utf8');
}

const headersOf = (message: string) => message.slice(0, message.indexOf('\n\n'));

describe('the notification e-mail is safe from header injection', () => {
  it('has exactly the headers we set, whatever the visitor typed', async () => {
    const hostile: EnquiryForEmail = {
      ...enquiry,
      name: 'Jo\r\nBcc: victim@evil.test',
      email: 'jo@example.com\r\nBcc: victim@evil.test',
      subject: 'Hi\nBcc: victim@evil.test\r\nContent-Type: text/html',
      message: '\r\n.\r\nMAIL FROM:<x@evil.test>\r\nBcc: victim@evil.test',
    };
    const headers = headersOf(await raw(hostile));
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers.match(/^Content-Type:/gim)).toHaveLength(1);
    expect(headers).toMatch(/^Content-Type: text\/plain/m);
    expect(headers).toMatch(/^To: office@homecare\.test$/m);
    // An address that is not one plain address never becomes Reply-To.
    expect(headers).not.toMatch(/^Reply-To:/im);
    expect(headers).toMatch(/^Subject: Website enquiry: Hi Bcc: victim@evil\.test Content-Type: text\/html$/m);
  });

  it('a name with quotes, commas and angle brackets stays one Reply-To address', async () => {
    const headers = headersOf(await raw({ ...enquiry, name: 'Evil, "Jo" <boss@evil.test>' }));
    const replyTo = /^Reply-To: (.*)$/m.exec(headers)?.[1] ?? '';
    // Parsed the way a mail client parses it: one address, the visitor's.
    const parsed = addressparser(replyTo, { flatten: true });
    expect(parsed.map((entry) => entry.address)).toEqual(['jo@example.com']);
  });

  it('non-ASCII subjects and names are encoded, not sent raw', async () => {
    const headers = headersOf(await raw({ ...enquiry, name: 'Zoë Ñandú', subject: 'Dégât des eaux 🌧' }));
    expect(headers).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(headers).toMatch(/^Reply-To: =\?UTF-8\?.*<jo@example\.com>$/m);
  });

  it('only plain single addresses qualify for Reply-To', () => {
    expect(isSafeReplyAddress('jo.bloggs+site@example.co.uk')).toBe(true);
    for (const bad of ['a,b@example.com', 'a@b.com,c@d.com', '"a"@b.com', 'a <b@c.com>', 'a@b', 'a@-b.com', 'a@b.com\n']) {
      expect(isSafeReplyAddress(bad)).toBe(false);
    }
  });

  it('headerText flattens line breaks and control characters', () => {
    expect(headerText('a\r\nb\u2028c\u0000d')).toBe('a b c d');
  });

  it('the body is plain text with every field', async () => {
    const message = await raw(enquiry);
    expect(message).toContain('Name:     Jo Bloggs');
    expect(message).toContain('Phone:    (not given)');
    expect(message).toContain('Water is coming in.\nPlease call.');
  });
});
