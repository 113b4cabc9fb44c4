import 'server-only';
import type Mail from 'nodemailer/lib/mailer';
import { business } from '@/content/business';
import { stageEmailText } from '@/content/claims';
import { stageWords, waitingOnWords } from '@/lib/claim-stages';
import type { claimStageChanges } from '@/server/base/db-schema';
import { NotAcknowledgeable, toCustomer } from '@/server/delivery/acknowledgement-email';
import { isSafeReplyAddress, type EnquiryForEmail } from '@/server/delivery/notification-email';

export type StageChangeForEmail = Pick<typeof claimStageChanges.$inferSelect, 'id' | 'stage' | 'waitingOn' | 'nextDate' | 'note'>;

/**
 * The company's note as the customer reads it: plain text (the e-mail has no HTML part), and any web
 * address or domain in it written so no mail client makes it a link (`hxxps://example[.]com`). A
 * staff page is reached by a link that could leak; a note sent from the company's own address with a
 * clickable link would be the phishing that leak is worth. The customer can still read it.
 */
export function defangedNote(note: string): string {
  return note.replace(/\bhttp(s?):\/\//gi, 'hxxp$1://').replace(/([a-z0-9-])\.(?=[a-z]{2,}\b)/gi, '$1[.]');
}

const ukDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' });

/**
 * The customer's e-mail about one change of their claim's stage: the reference, the stage in words,
 * the next date, whose move it is, the company's note and the status link. It repeats nothing the
 * visitor typed. Sent only to one plain address (else the job fails at once, as an acknowledgement's).
 */
export function stageEmail(
  enquiry: EnquiryForEmail,
  change: StageChangeForEmail,
  options: { from: string; replyTo: string; statusLink?: string },
): Mail.Options {
  if (!isSafeReplyAddress(enquiry.email)) throw new NotAcknowledgeable('the sender’s e-mail is not one plain address');
  if (!enquiry.reference) throw new NotAcknowledgeable('the enquiry has no reference');
  const text = stageEmailText;
  const stage = stageWords(change.stage);
  const lines = [
    text.greeting,
    '',
    text.moved(enquiry.reference, stage),
    ...(change.nextDate ? [text.nextDate(ukDate.format(new Date(`${change.nextDate}T00:00:00Z`)))] : []),
    ...(change.waitingOn ? [text.waitingOn(waitingOnWords(change.waitingOn))] : []),
    '',
    ...(change.note ? [text.note, '', defangedNote(change.note), ''] : []),
    ...(options.statusLink ? [text.link, options.statusLink, ''] : []),
    text.contactLine(business.phone.display),
    '',
    '-- ',
    business.name,
    ...business.address.lines,
  ];
  return toCustomer(enquiry, enquiry.reference, options, {
    subject: text.subject(enquiry.reference, stage, business.name),
    lines,
    messageId: `<stage-${enquiry.id}.${change.id}@homecare-web.invalid>`,
    autoSubmitted: 'auto-generated',
  });
}
