import 'server-only';
import type Mail from 'nodemailer/lib/mailer';
import { business } from '@/content/business';
import { claimLinkText } from '@/content/claims';
import { claimFormText, notificationText } from '@/content/contact';
import { plainText } from '@/lib/plain-text';
import {
  claimRoleLabel,
  damageTypeLabel,
  desktopAnswerLabel,
  isInstructingRole,
  urgencyAnswerLabel,
  urgencyReasons,
  URGENCY_FIELDS,
  vatAnswerLabel,
} from '@/lib/contact-fields';
import { formatBytes, hasClaim, hasSupportNeeds } from '@/lib/contact-fields';
import { sourceOf } from '@/lib/visit-attribution';
import { KEPT_ON_PHONE, SENT_WITHOUT_SCRIPT } from '@/server/ledger/sent-without-script';
import type { StoredEnquiry } from '@/server/ledger/enquiry-store';

export type EnquiryForEmail = StoredEnquiry;

/** A claim's signed links (server/claims/claim-links.ts): its status page and the company's staff page. */
export type ClaimLinks = { status: string; update: string };

/** The enquiry an edited re-send replaces (store.ts replacedEnquiry). */
export type ReplacedEnquiry = { reference: string; receivedAt: string };

/** The first line of the notification of an enquiry the form posted without its JavaScript. */
const NOT_CHECKED_LINE =
  "NOT CHECKED BY BOT PROTECTION: sent from a browser that had not run the page's JavaScript. No acknowledgement was sent to the address given.";

const KEPT_ON_PHONE_LINE =
  'NOT CHECKED BY BOT PROTECTION: kept on a phone with no signal and sent later by the site, where bot protection cannot run. No acknowledgement was sent to the address given.';

/** A single plain address: nothing a header parser could read as a second address or a new header. */
const SAFE_ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export const isSafeReplyAddress = (address: string) => address.length <= 254 && SAFE_ADDRESS.test(address);

/**
 * Anything bound for a header: one line, no control characters and no bidirectional or zero-width
 * character (lib/plain-text.ts: a subject cannot show "Roof exe.jpg" for `Roof \u202Egpj.exe`), bounded.
 */
export function headerText(value: string, max = 200): string {
  const flat = plainText(value, 'space', ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * A message's body from its lines, through the same filter as the headers with the newlines kept. The
 * visitor's text was filtered when it was stored; this holds for rows stored before the filter knew a
 * character too.
 */
export const bodyText = (lines: readonly string[]) => plainText(lines.join('\n'), 'keep');

/**
 * What would help us work with the person, first of all: whoever picks up the enquiry reads it before
 * they phone or call round. Their own words follow the heading line by line. None when they gave none.
 */
function supportLines(enquiry: EnquiryForEmail): string[] {
  if (!hasSupportNeeds(enquiry)) return [];
  const { labels } = claimFormText;
  const [first = '', ...rest] = (enquiry.supportNeeds ?? '').split('\n');
  const indent = ''.padEnd(labels.supportNeeds.length + 2);
  return [
    'SUPPORT NEEDS',
    ...(enquiry.noPhoneCalls ? [`${labels.noPhoneCalls}.`] : []),
    ...(enquiry.supportNeeds ? [`${labels.supportNeeds}: ${first}`, ...rest.map((line) => `${indent}${line}`)] : []),
    '',
  ];
}

/** The first lines of an urgent enquiry's notification: why it is urgent. None when it is not. */
function urgencyLines(enquiry: EnquiryForEmail): string[] {
  const reasons = urgencyReasons(enquiry);
  if (reasons.length === 0) return [];
  return ['URGENT: call back first.', ...reasons.map((reason) => `- ${reason}`), ''];
}

/** `Worsening: Yes · Stay tonight: No · At risk: Not sure`, the urgency answers given; '' when none was. */
function urgencyAnswers(enquiry: EnquiryForEmail): string {
  const short = { worsening: 'Still getting worse', habitable: 'Can stay tonight', vulnerable: 'Someone at risk' } as const;
  return URGENCY_FIELDS.filter((field) => enquiry[field])
    .map((field) => `${short[field]}: ${urgencyAnswerLabel(enquiry[field])}`)
    .join(' · ');
}

const labelled = (width: number) => (label: string, value: string) => `${`${label}:`.padEnd(width)}${value || '-'}`;

/** The claim details as labelled lines a surveyor can scan on a phone; none when the enquiry has none. */
function claimBlock(enquiry: EnquiryForEmail): string[] {
  if (!hasClaim(enquiry)) return [];
  if (isInstructingRole(enquiry.claimRole)) return instructionBlock(enquiry);
  const { labels } = claimFormText;
  const line = labelled(28);
  return [
    'CLAIM DETAILS',
    line('Urgency', urgencyAnswers(enquiry)),
    line(labels.damageType, enquiry.damageType ? damageTypeLabel(enquiry.damageType) : ''),
    line(labels.damageDate, enquiry.damageDate ? ukDate(enquiry.damageDate) : ''),
    line(labels.postcode, enquiry.postcode ?? ''),
    line(labels.insurer, enquiry.insurer ?? ''),
    line(labels.claimReference, enquiry.claimReference ?? ''),
    line(labels.claimRole, enquiry.claimRole ? claimRoleLabel(enquiry.claimRole) : ''),
    '',
  ];
}

/**
 * An insurer's or loss adjuster's instruction, set out so the office can forward it as it is: who
 * instructs and their claim number, the policyholder, the property, the policy, the damage and its urgency.
 */
function instructionBlock(enquiry: EnquiryForEmail): string[] {
  const line = labelled(22);
  const instructor = [enquiry.name, enquiry.claimRole ? claimRoleLabel(enquiry.claimRole) : '', enquiry.insurer ?? '']
    .filter(Boolean)
    .join(', ');
  const reasons = urgencyReasons(enquiry);
  const address = (enquiry.propertyAddress ?? '')
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean);
  return [
    'INSTRUCTION',
    line('Instructed by', instructor),
    line('Contact', [enquiry.email, enquiry.phone].filter(Boolean).join(', ')),
    line('Their claim number', enquiry.claimReference ?? ''),
    line('Our reference', enquiry.reference ?? `#${enquiry.id}`),
    line('Policyholder', enquiry.policyholderName ?? ''),
    line('Policyholder phone', enquiry.policyholderPhone ?? ''),
    line('Property', address[0] ?? ''),
    ...address.slice(1).map((part) => `${''.padEnd(22)}${part}`),
    line('Postcode', enquiry.postcode ?? ''),
    line('VAT-registered', vatAnswerLabel(enquiry.vatRegistered)),
    line('Excess', enquiry.excess ?? ''),
    line(
      'Desktop assessment',
      desktopAnswerLabel(enquiry.desktopAssessment) ? `${desktopAnswerLabel(enquiry.desktopAssessment)}, acceptable` : '',
    ),
    line(
      'Damage',
      [enquiry.damageType ? damageTypeLabel(enquiry.damageType) : '', enquiry.damageDate ? `on ${ukDate(enquiry.damageDate)}` : '']
        .filter(Boolean)
        .join(' '),
    ),
    line('Urgency', reasons.length > 0 ? `URGENT. ${reasons.join(' ')}` : urgencyAnswers(enquiry) || 'not said'),
    '',
  ];
}

/** Where the enquiry came from, for the office: the page it was sent from and the visit's landing and source. */
function sourceLines(enquiry: EnquiryForEmail): string[] {
  if (!enquiry.sentFrom && !enquiry.landingPage) return [];
  const campaign = enquiry.utmCampaign ? `, campaign "${headerText(enquiry.utmCampaign, 100)}"` : '';
  return [
    `Sent from: ${enquiry.sentFrom ?? '-'}`,
    `Landed on: ${enquiry.landingPage ?? '-'}, from ${headerText(sourceOf(enquiry), 200)}${campaign}`,
  ];
}

/** A notification's size at most when nothing else is configured (SMTP_MAX_MESSAGE_MB): many relays take 10-25 MB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10_000_000;
/** What the text, the headers and the MIME framing take at most, beside the attachments. */
const MESSAGE_OVERHEAD_BYTES = 64 * 1024;

/** A file's size once base64-encoded in a message: 57 bytes become a 76-character line and its CRLF. */
const encodedSize = (bytes: number) => Math.ceil(bytes / 57) * 78;

/**
 * The photos (by position) that fit in one message of at most `maxMessageBytes`, in order: the first
 * ones that fit together; a later one that would not fit is left out and listed instead.
 */
export function photosThatFit(photos: readonly { position: number; bytes: number }[], maxMessageBytes: number): Set<number> {
  let room = maxMessageBytes - MESSAGE_OVERHEAD_BYTES;
  const fit = new Set<number>();
  for (const photo of photos) {
    const size = encodedSize(photo.bytes);
    if (size > room) break;
    room -= size;
    fit.add(photo.position);
  }
  return fit;
}

/** `content` null: not read (it is not attached), or the file is not on the server any more (`missing`). */
export type PhotoForEmail = {
  position: number;
  originalName: string;
  bytes: number;
  width: number;
  height: number;
  content: Buffer | null;
  missing?: boolean;
};

/** Attachments are named by position, never by the visitor's file name (which the body lists). */
const attachmentName = (position: number) => `photo-${position}.jpg`;

function photoLines(enquiry: EnquiryForEmail, photos: readonly PhotoForEmail[], toFollow = 0): string[] {
  if (toFollow > 0) return [`Photos: ${toFollow}, sent while this e-mail was on its way; they follow in a separate e-mail.`, ''];
  if (photos.length === 0) return [];
  const attached = photos.filter((photo) => photo.content).length;
  const left = photos.filter((photo) => !photo.content && !photo.missing);
  const list = photos.map(
    (photo) =>
      `  ${attachmentName(photo.position)}  ${photo.width}x${photo.height}, ${formatBytes(photo.bytes)}  (sent as "${headerText(photo.originalName, 100)}")${photo.missing ? '  MISSING: the file is not on the server' : photo.content ? '' : '  not attached'}`,
  );
  const heading =
    left.length === 0
      ? `Photos: ${photos.length}, attached.`
      : `Photos: ${photos.length}, ${attached} attached; ${left.length} (${formatBytes(left.reduce((sum, photo) => sum + photo.bytes, 0))}) too large for one e-mail. On the server: npm run enquiries -- --photos ${enquiry.id} --out DIR`;
  return [heading, ...list, ''];
}

/** `2026-11-14` → `14/11/2026`, as people in the UK write dates. */
const ukDate = (iso: string) => iso.split('-').reverse().join('/');

/**
 * `Enquiry HC-7KQ-4MP: Water damage: Roof leak`, or without the damage type when none was given;
 * `Instruction …` from an insurer or loss adjuster; `URGENT: …` first when the answers make it urgent.
 */
function notificationSubject(enquiry: EnquiryForEmail): string {
  const urgent = urgencyReasons(enquiry).length > 0 ? 'URGENT: ' : '';
  const kind = isInstructingRole(enquiry.claimRole) ? 'Instruction' : 'Enquiry';
  const label = enquiry.reference ? `${kind} ${enquiry.reference}` : `Website ${kind.toLowerCase()} #${enquiry.id}`;
  const damage = enquiry.damageType ? `: ${damageTypeLabel(enquiry.damageType)}` : '';
  return headerText(`${urgent}${label}${damage}: ${enquiry.subject}`, 250);
}

/**
 * The plain-text notification for one enquiry (photos with `content` are attached; the caller chose
 * them with photosThatFit): the support needs, why it is urgent, the reference and the claim details
 * first, then the contact details and the message. The visitor's address appears only as Reply-To (and in the body);
 * From and To are the site's own. nodemailer encodes every header value (RFC 2047), and headerText
 * removes line breaks first, so visitor text cannot add or end a header.
 */
export function notificationEmail(
  enquiry: EnquiryForEmail,
  /** `photosToFollow`: how many photos go in the follow-up instead (photosFollowUpEmail), none attached here. */
  options: {
    from: string;
    to: string;
    photos?: readonly PhotoForEmail[];
    photosToFollow?: number;
    links?: ClaimLinks;
    replaces?: ReplacedEnquiry | null;
  },
): Mail.Options {
  const replyOk = isSafeReplyAddress(enquiry.email);
  const toFollow = options.photosToFollow ?? 0;
  const photos = toFollow > 0 ? [] : (options.photos ?? []);
  const lines = [
    ...supportLines(enquiry),
    ...urgencyLines(enquiry),
    ...(enquiry.verificationDetail === SENT_WITHOUT_SCRIPT ? [NOT_CHECKED_LINE, ''] : []),
    ...(enquiry.verificationDetail === KEPT_ON_PHONE ? [KEPT_ON_PHONE_LINE, ''] : []),
    `Reference: ${enquiry.reference ?? `(none: enquiry #${enquiry.id})`}`,
    ...(options.replaces ? [notificationText.resentWithChanges(options.replaces.reference, options.replaces.receivedAt)] : []),
    '',
    ...claimBlock(enquiry),
    `Name:     ${enquiry.name}`,
    `E-mail:   ${enquiry.email}${replyOk ? '' : ' (not a plain address: not set as Reply-To, check before replying)'}`,
    `Phone:    ${enquiry.phone || '(not given)'}`,
    `Subject:  ${enquiry.subject}`,
    `Received: ${enquiry.receivedAt}`,
    `Check:    ${enquiry.verification}`,
    `Enquiry:  #${enquiry.id}`,
    ...sourceLines(enquiry),
    '',
    'Message:',
    '',
    enquiry.message,
    '',
    ...photoLines(enquiry, photos, toFollow),
    ...(options.links
      ? [`${claimLinkText.update}: ${options.links.update}`, `${claimLinkText.customerSees}: ${options.links.status}`, '']
      : []),
  ];
  return {
    ...toCompany(enquiry, options, lines, photos),
    subject: notificationSubject(enquiry),
    messageId: notificationMessageId(enquiry),
  };
}

/**
 * What the notification and its photos' follow-up share: From and To the site's own, Reply-To the
 * visitor's address when it is a plain one, the text with its signature, the photos that have content
 * attached, the enquiry's headers, and no access to URLs or files.
 */
function toCompany(
  enquiry: EnquiryForEmail,
  options: { from: string; to: string },
  lines: readonly string[],
  photos: readonly PhotoForEmail[],
): Mail.Options {
  const replyOk = isSafeReplyAddress(enquiry.email);
  const attachments = photos.flatMap((photo) => (photo.content ? [{ position: photo.position, content: photo.content }] : []));
  return {
    from: { name: `${business.name} website`, address: options.from },
    to: options.to,
    ...(replyOk ? { replyTo: { name: headerText(enquiry.name, 100), address: enquiry.email } } : {}),
    text: bodyText([...lines, '-- ', `${business.name} website. ${replyOk ? 'Reply to this e-mail to answer the visitor.' : ''}`.trim()]),
    ...(attachments.length > 0
      ? {
          attachments: attachments.map((photo) => ({
            filename: attachmentName(photo.position),
            content: photo.content,
            contentType: 'image/jpeg',
          })),
        }
      : {}),
    headers: enquiryHeaders(enquiry),
    disableUrlAccess: true,
    disableFileAccess: true,
  };
}

/** The notification's Message-ID, fixed per enquiry: a resent copy is the same message, and the follow-up answers it. */
const notificationMessageId = (enquiry: EnquiryForEmail) =>
  `<enquiry-${enquiry.id}.${enquiry.receivedAt.replace(/[^0-9]/g, '')}@homecare-web.invalid>`;

const enquiryHeaders = (enquiry: EnquiryForEmail) => ({
  'X-Homecare-Enquiry-Id': String(enquiry.id),
  ...(enquiry.reference ? { 'X-Homecare-Reference': enquiry.reference } : {}),
});

/** `More photos for HC-7KQ-4MP`. */
function photosFollowUpSubject(enquiry: EnquiryForEmail): string {
  return headerText(`More photos for ${enquiry.reference ?? `website enquiry #${enquiry.id}`}`, 250);
}

/**
 * The follow-up that carries photos which reached an enquiry after its notification had gone out (the
 * visitor's upload was retried, or the form sent again): it names the enquiry as the notification does,
 * attaches the photos like it (the caller chose them with photosThatFit) and answers it, so a mail
 * client shows the two together. From, To and Reply-To as in the notification.
 */
export function photosFollowUpEmail(
  enquiry: EnquiryForEmail,
  /** `addedFrom`: the first position of a batch the customer added later from the claim's status page. */
  options: { from: string; to: string; photos: readonly PhotoForEmail[]; addedFrom?: number | null },
): Mail.Options {
  const later = options.addedFrom != null;
  const lines = [
    `Reference: ${enquiry.reference ?? `(none: enquiry #${enquiry.id})`}`,
    '',
    `Name:     ${enquiry.name}`,
    `Subject:  ${enquiry.subject}`,
    `Received: ${enquiry.receivedAt}`,
    `Enquiry:  #${enquiry.id}`,
    '',
    ...(later
      ? [
          "The customer added these photos later, from the claim's status page (opened by its link or by its",
          'reference and e-mail address). Nothing else about the enquiry has changed.',
        ]
      : [
          "These photos came after the first notification of this enquiry had gone out: the visitor's form sent",
          'them again (a retried upload or a second send). Nothing else about the enquiry has changed.',
        ]),
    '',
    ...photoLines(enquiry, options.photos),
  ];
  const first = notificationMessageId(enquiry);
  return {
    ...toCompany(enquiry, options, lines, options.photos),
    subject: photosFollowUpSubject(enquiry),
    messageId: `<photos-${enquiry.id}${later ? `-${options.addedFrom}` : ''}.${enquiry.receivedAt.replace(/[^0-9]/g, '')}@homecare-web.invalid>`,
    inReplyTo: first,
    references: [first],
  };
}
