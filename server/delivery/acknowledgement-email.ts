import 'server-only';
import type Mail from 'nodemailer/lib/mailer';
import { business } from '@/content/business';
import { claimLinkText } from '@/content/claims';
import { acknowledgementText } from '@/content/contact';
import { instructionProofText } from '@/content/instruction-proof';
import { isInstructingRole } from '@/lib/contact-fields';
import { bodyText, headerText, isSafeReplyAddress, type ClaimLinks, type EnquiryForEmail } from '@/server/delivery/notification-email';

/**
 * A claim number as insurers write them (letters, digits, `/ . -`, at most two spaces, at least one
 * digit): the one thing an instruction's sender typed that its acknowledgement repeats, as /insurers
 * promises. Anything else is left out, so the form still cannot carry chosen words to another address.
 */
const CLAIM_NUMBER = /^[A-Za-z0-9/.-]+(?: [A-Za-z0-9/.-]+){0,2}$/;
const pairableClaimNumber = (value: string | null): string | null =>
  value && value.length <= 40 && CLAIM_NUMBER.test(value) && /[0-9]/.test(value) ? value : null;

/** Why an enquiry cannot be acknowledged: the job then fails at once rather than retrying. */
export class NotAcknowledgeable extends Error {}

/**
 * The acknowledgement e-mail to the sender of an accepted enquiry. Fixed text with the
 * reference, what happens next and how to reach the company. It repeats nothing the visitor typed (not
 * their name, in the body or the To header), so the form cannot be used to send chosen words to a
 * third party's address; the store caps how many go out (decision 0011). Sent only to one plain address.
 */
export function acknowledgementEmail(
  enquiry: EnquiryForEmail,
  options: { from: string; replyTo: string; links?: ClaimLinks; confirmFor?: string | null },
): Mail.Options {
  if (!isSafeReplyAddress(enquiry.email)) throw new NotAcknowledgeable('the sender’s e-mail is not one plain address');
  if (!enquiry.reference) throw new NotAcknowledgeable('the enquiry has no reference');
  const text = acknowledgementText;
  // An insurer's or loss adjuster's instruction: our reference paired with their claim number, and
  // nothing of the policyholder's.
  const claimNumber = isInstructingRole(enquiry.claimRole) ? pairableClaimNumber(enquiry.claimReference) : null;
  const lines = [
    text.greeting,
    '',
    claimNumber ? text.instructionReceived(enquiry.reference, claimNumber) : text.received(enquiry.reference),
    '',
    text.nextHeading,
    '',
    ...(claimNumber ? [`- ${text.instructionNext}`] : text.next.map((line) => `- ${line}`)),
    '',
    ...(options.links
      ? [
          ...(claimNumber && options.confirmFor ? [instructionProofText.acknowledgement(options.confirmFor)] : [claimLinkText.statusIntro]),
          options.links.status,
          '',
        ]
      : []),
    text.contactLine(business.phone.display, business.openingHours.label),
    text.emergencyLine(business.emergencyPhone.display),
    `E-mail: ${business.email}`,
    '',
    text.notYou,
    '',
    '-- ',
    business.name,
    ...business.address.lines,
  ];
  return toCustomer(enquiry, enquiry.reference, options, {
    subject: claimNumber
      ? text.instructionSubject(enquiry.reference, claimNumber, business.name)
      : text.subject(enquiry.reference, business.name),
    lines,
    messageId: `<acknowledgement-${enquiry.id}.${enquiry.receivedAt.replace(/[^0-9]/g, '')}@homecare-web.invalid>`,
    autoSubmitted: 'auto-replied',
  });
}

/**
 * What every e-mail to the sender of an enquiry shares: From the company at the site's address, To the
 * sender, Reply-To the company's inbox, the enquiry's headers, and no access to URLs or files.
 */
export function toCustomer(
  enquiry: EnquiryForEmail,
  reference: string,
  options: { from: string; replyTo: string },
  message: { subject: string; lines: readonly string[]; messageId: string; autoSubmitted: 'auto-replied' | 'auto-generated' },
): Mail.Options {
  return {
    from: { name: business.name, address: options.from },
    to: enquiry.email,
    replyTo: options.replyTo,
    subject: headerText(message.subject),
    text: bodyText(message.lines),
    messageId: message.messageId,
    headers: { 'X-Homecare-Enquiry-Id': String(enquiry.id), 'X-Homecare-Reference': reference, 'Auto-Submitted': message.autoSubmitted },
    disableUrlAccess: true,
    disableFileAccess: true,
  };
}
