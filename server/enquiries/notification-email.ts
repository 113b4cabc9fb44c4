import 'server-only';
import type Mail from 'nodemailer/lib/mailer';
import { business } from '@/content/business';
import { claimFormText } from '@/content/contact';
import { claimRoleLabel, damageTypeLabel } from '@/lib/claim-rules';
import { formatBytes } from '@/lib/photo-rules';
import { storedClaim, type StoredEnquiry } from '@/server/enquiries/store';

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

/** The claim details as labelled lines a surveyor can scan on a phone; none when the enquiry has none. */
export function claimBlock(enquiry: EnquiryForEmail): string[] {
  const claim = storedClaim(enquiry);
  if (!claim) return [];
  const { labels } = claimFormText;
  const line = (label: string, value: string) => `${`${label}:`.padEnd(28)}${value || '-'}`;
  return [
    'CLAIM DETAILS',
    line(labels.damageType, claim.damageType ? damageTypeLabel(claim.damageType) : ''),
    line(labels.damageDate, claim.damageDate ? ukDate(claim.damageDate) : ''),
    line(labels.postcode, claim.postcode),
    line(labels.insurer, claim.insurer),
    line(labels.claimReference, claim.claimReference),
    line(labels.claimRole, claim.claimRole ? claimRoleLabel(claim.claimRole) : ''),
    '',
  ];
}

/** Photos attached to one notification at most, together (a relay's limit is often 20-25 MB after base64). */
export const MAX_ATTACHED_BYTES = 15_000_000;

/** `content` null: the file is not on the server any more (the e-mail says so rather than fail). */
export type PhotoForEmail = {
  position: number;
  originalName: string;
  bytes: number;
  width: number;
  height: number;
  content: Buffer | null;
};

/** Attachments are named by position, never by the visitor's file name (which the body lists). */
export const attachmentName = (position: number) => `photo-${position}.jpg`;

function photoLines(enquiry: EnquiryForEmail, photos: readonly PhotoForEmail[], attached: boolean): string[] {
  if (photos.length === 0) return [];
  const total = photos.reduce((sum, photo) => sum + photo.bytes, 0);
  const list = photos.map(
    (photo) =>
      `  ${attachmentName(photo.position)}  ${photo.width}x${photo.height}, ${formatBytes(photo.bytes)}  (sent as "${headerText(photo.originalName, 100)}")${attached && !photo.content ? '  MISSING: the file is not on the server' : ''}`,
  );
  const heading = attached
    ? `Photos: ${photos.length}, attached.`
    : `Photos: ${photos.length} (${formatBytes(total)}), too large to attach together. On the server: npm run enquiries -- --photos ${enquiry.id} --out DIR`;
  return [heading, ...list, ''];
}

/** `2026-11-14` → `14/11/2026`, as people in the UK write dates. */
const ukDate = (iso: string) => iso.split('-').reverse().join('/');

/** `Enquiry HC-7KQ-4MP: Water damage: Roof leak`, or without the damage type when none was given. */
export function notificationSubject(enquiry: EnquiryForEmail): string {
  const label = enquiry.reference ? `Enquiry ${enquiry.reference}` : `Website enquiry #${enquiry.id}`;
  const damage = enquiry.damageType ? `: ${damageTypeLabel(enquiry.damageType)}` : '';
  return headerText(`${label}${damage}: ${enquiry.subject}`, 250);
}

/**
 * The plain-text notification for one enquiry: the reference and the claim details first, then the
 * contact details and the message. The visitor's address appears only as Reply-To (and in the body);
 * From and To are the site's own. nodemailer encodes every header value (RFC 2047), and headerText
 * removes line breaks first, so visitor text cannot add or end a header.
 */
export function notificationEmail(
  enquiry: EnquiryForEmail,
  options: { from: string; to: string; photos?: readonly PhotoForEmail[] },
): Mail.Options {
  const replyOk = isSafeReplyAddress(enquiry.email);
  const photos = options.photos ?? [];
  const totalBytes = photos.reduce((sum, photo) => sum + photo.bytes, 0);
  const attach = photos.length > 0 && totalBytes <= MAX_ATTACHED_BYTES;
  const lines = [
    `Reference: ${enquiry.reference ?? `(none: enquiry #${enquiry.id})`}`,
    '',
    ...claimBlock(enquiry),
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
    ...photoLines(enquiry, photos, attach),
    '-- ',
    `${business.name} website. ${replyOk ? 'Reply to this e-mail to answer the visitor.' : ''}`.trim(),
  ];
  return {
    from: { name: `${business.name} website`, address: options.from },
    to: options.to,
    ...(replyOk ? { replyTo: { name: headerText(enquiry.name, 100), address: enquiry.email } } : {}),
    subject: notificationSubject(enquiry),
    text: lines.join('\n'),
    ...(attach
      ? {
          attachments: photos
            .flatMap((photo) => (photo.content ? [photo] : []))
            .map((photo) => ({
              filename: attachmentName(photo.position),
              content: photo.content ?? undefined,
              contentType: 'image/jpeg',
            })),
        }
      : {}),
    messageId: `<enquiry-${enquiry.id}.${enquiry.receivedAt.replace(/[^0-9]/g, '')}@homecare-web.invalid>`,
    headers: { 'X-Homecare-Enquiry-Id': String(enquiry.id), ...(enquiry.reference ? { 'X-Homecare-Reference': enquiry.reference } : {}) },
    disableUrlAccess: true,
    disableFileAccess: true,
  };
}
