import 'server-only';
import type Mail from 'nodemailer/lib/mailer';
import { business } from '@/content/business';
import type { StoredEnquiry } from '@/server/enquiries/store';

export type EnquiryForEmail = StoredEnquiry;

/** A single plain address: nothing a header parser could read as a second address or a new header. */
const SAFE_ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export const isSafeReplyAddress = (address: string) => address.length <= 254 && SAFE_ADDRESS.test(address);

/** Anything bound for a header: one line, no control characters, bounded. */
export function headerText(value: string, max = 200): string {
  const flat = value
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The plain-text notification for one enquiry. The visitor's address appears only as Reply-To (and in
 * the body); From and To are the site's own. nodemailer encodes every header value (RFC 2047), and
 * headerText removes line breaks first, so visitor text cannot add or end a header.
 */
export function notificationEmail(enquiry: EnquiryForEmail, options: { from: string; to: string }): Mail.Options {
  const replyOk = isSafeReplyAddress(enquiry.email);
  const lines = [
    `A new enquiry arrived through the website contact form.`,
    '',
    `Name:     ${enquiry.name}`,
    `E-mail:   ${enquiry.email}${replyOk ? '' : ' (not a plain address: not set as Reply-To, check before replying)'}`,
    `Phone:    ${enquiry.phone || '(not given)'}`,
    `Subject:  ${enquiry.subject}`,
    `Received: ${enquiry.receivedAt}`,
    `Check:    ${enquiry.verification}`,
    `Enquiry:  #${enquiry.id}`,
    '',
    'Message:',
    '',
    enquiry.message,
    '',
    '-- ',
    `${business.name} website. ${replyOk ? 'Reply to this e-mail to answer the visitor.' : ''}`.trim(),
  ];
  return {
    from: { name: `${business.name} website`, address: options.from },
    to: options.to,
    ...(replyOk ? { replyTo: { name: headerText(enquiry.name, 100), address: enquiry.email } } : {}),
    subject: headerText(`Website enquiry: ${enquiry.subject}`, 250),
    text: lines.join('\n'),
    messageId: `<enquiry-${enquiry.id}.${enquiry.receivedAt.replace(/[^0-9]/g, '')}@homecare-web.invalid>`,
    headers: { 'X-Homecare-Enquiry-Id': String(enquiry.id) },
    disableUrlAccess: true,
    disableFileAccess: true,
  };
}
