import 'server-only';
import type Mail from 'nodemailer/lib/mailer';
import { business } from '@/content/business';
import { surveyReminderText } from '@/content/claims';
import { NotAcknowledgeable, toCustomer } from '@/server/delivery/acknowledgement-email';
import { isSafeReplyAddress, type EnquiryForEmail } from '@/server/delivery/notification-email';

/**
 * The homeowner's reminder of their survey visit (`when`: its window in words), with the status link;
 * like every e-mail to the customer, it repeats nothing the visitor typed. One Message-ID per visit and
 * version (`version`: the change of stage that booked or moved it), so a resend after a crash is the same message.
 */
export function surveyReminderEmail(
  enquiry: EnquiryForEmail,
  visit: { when: string; version: number },
  options: { from: string; replyTo: string; statusLink?: string },
): Mail.Options {
  if (!isSafeReplyAddress(enquiry.email)) throw new NotAcknowledgeable('the sender’s e-mail is not one plain address');
  if (!enquiry.reference) throw new NotAcknowledgeable('the enquiry has no reference');
  const text = surveyReminderText;
  const lines = [
    text.greeting,
    '',
    text.visit(enquiry.reference, visit.when),
    text.window,
    '',
    text.cannotMake(business.phone.display),
    '',
    ...(options.statusLink ? [text.link, options.statusLink, ''] : []),
    '-- ',
    business.name,
    ...business.address.lines,
  ];
  return toCustomer(enquiry, enquiry.reference, options, {
    subject: text.subject(enquiry.reference, visit.when, business.name),
    lines,
    messageId: `<survey-reminder-${enquiry.id}.${visit.version}@homecare-web.invalid>`,
    autoSubmitted: 'auto-generated',
  });
}
