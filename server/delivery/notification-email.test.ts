import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { describe, expect, it } from 'vitest';
import { acknowledgementEmail } from '@/server/delivery/acknowledgement-email';
import {
  headerText,
  isSafeReplyAddress,
  notificationEmail,
  photosFollowUpEmail,
  photosThatFit,
  type EnquiryForEmail,
  type PhotoForEmail,
} from '@/server/delivery/notification-email';
import { KEPT_ON_PHONE, SENT_WITHOUT_SCRIPT } from '@/server/ledger/sent-without-script';

const noClaim = {
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
};

const enquiry: EnquiryForEmail = {
  id: 7,
  reference: 'HC-7KQ-4MP',
  ...noClaim,
  receivedAt: '2026-01-05T09:00:00.000Z',
  name: 'Jo Bloggs',
  email: 'jo@example.com',
  phone: null,
  subject: 'Roof leak',
  message: 'Water is coming in.\nPlease call.',
  verification: 'verified',
  verificationDetail: null,
};

async function raw(input: EnquiryForEmail): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(notificationEmail(input, { from: 'website@homecare.test', to: 'office@homecare.test' }));
  return (info.message as Buffer).toString('utf8');
}

const headersOf = (message: string) => message.slice(0, message.indexOf('\n\n'));
/** The body as written, before nodemailer's transfer encoding. */
const textOf = (input: EnquiryForEmail) =>
  String(notificationEmail(input, { from: 'website@homecare.test', to: 'office@homecare.test' }).text);

describe('the notification of an enquiry bot protection could not check', () => {
  it('says so first, for a form posted without its script and for a claim a phone kept with no signal', () => {
    expect(textOf({ ...enquiry, verification: 'unverified', verificationDetail: SENT_WITHOUT_SCRIPT })).toContain(
      "NOT CHECKED BY BOT PROTECTION: sent from a browser that had not run the page's JavaScript. No acknowledgement was sent to the address given.\n\nReference: HC-7KQ-4MP",
    );
    expect(textOf({ ...enquiry, verification: 'unverified', verificationDetail: KEPT_ON_PHONE })).toContain(
      'NOT CHECKED BY BOT PROTECTION: kept on a phone with no signal and sent later by the site, where bot protection cannot run. No acknowledgement was sent to the address given.\n\nReference: HC-7KQ-4MP',
    );
    expect(textOf(enquiry)).not.toContain('NOT CHECKED');
  });
});

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
    expect(headers.replace(/\n /g, ' ')).toMatch(/^Subject: Enquiry HC-7KQ-4MP: Hi Bcc: victim@evil\.test Content-Type: text\/html$/m);
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

describe('the notification leads with the reference and the claim details', () => {
  const claim: EnquiryForEmail = {
    ...enquiry,
    claimRole: 'agent-landlord',
    insurer: 'Example Mutual',
    claimReference: 'CLM-2026-0042',
    damageDate: '2026-11-14',
    damageType: 'water-damage',
    postcode: 'G67 1AB',
  };

  it('names the reference and the type of damage in the subject', async () => {
    const headers = headersOf(await raw(claim));
    expect(headers).toMatch(/^Subject: Enquiry HC-7KQ-4MP: Water damage: Roof leak$/m);
    expect(headers).toMatch(/^X-Homecare-Reference: HC-7KQ-4MP$/m);
  });

  it('puts the reference, then a labelled claim block, before the contact details and the message', async () => {
    const body = textOf(claim);
    const order = ['Reference: HC-7KQ-4MP', 'CLAIM DETAILS', 'Name:     Jo Bloggs', 'Message:'].map((text) => body.indexOf(text));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(body).toMatch(/^Type of damage: +Water damage$/m);
    expect(body).toMatch(/^Date of the damage: +14\/11\/2026$/m);
    expect(body).toMatch(/^Postcode of the property: +G67 1AB$/m);
    expect(body).toMatch(/^Insurer’s name: +Example Mutual$/m);
    expect(body).toMatch(/^Claim or policy reference: +CLM-2026-0042$/m);
    expect(body).toMatch(/^Who is getting in touch: +Managing agent or landlord$/m);
  });

  it('shows a dash for a claim detail not given and no block at all without claim details', async () => {
    const partial = textOf({ ...enquiry, postcode: 'G1 1AA' });
    expect(partial).toMatch(/^Type of damage: +-$/m);
    expect(partial).toMatch(/^Postcode of the property: +G1 1AA$/m);
    expect(textOf(enquiry)).not.toContain('CLAIM DETAILS');
    expect(headersOf(await raw(enquiry))).toMatch(/^Subject: Enquiry HC-7KQ-4MP: Roof leak$/m);
  });
});

describe('photos in the notification', () => {
  const photo = (position: number, bytes: number) => ({
    position,
    originalName: `IMG_${position}.jpg`,
    bytes,
    width: 2048,
    height: 1536,
    content: Buffer.alloc(bytes, position),
  });

  it('attaches them, named by position', () => {
    const mail = notificationEmail(enquiry, { from: 'a@b.test', to: 'c@d.test', photos: [photo(1, 800_000), photo(2, 900_000)] });
    expect(mail.attachments?.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
    expect(String(mail.text)).toContain('Photos: 2, attached.');
  });

  it('attaches the photos that fit the message size and lists the rest with the command that fetches them', () => {
    const photos = [1, 2, 3, 4, 5, 6].map((position) => photo(position, 2_600_000));
    // 10 MB: three photos (3.56 MB each once encoded) would not fit with the text; two do.
    const fit = photosThatFit(photos, 10_000_000);
    expect([...fit]).toEqual([1, 2]);
    const mail = notificationEmail(enquiry, {
      from: 'a@b.test',
      to: 'c@d.test',
      photos: photos.map((entry) => (fit.has(entry.position) ? entry : { ...entry, content: null })),
    });
    expect(mail.attachments?.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
    expect(String(mail.text)).toContain(
      'Photos: 6, 2 attached; 4 (10.4 MB) too large for one e-mail. On the server: npm run enquiries -- --photos 7 --out DIR',
    );
    expect(String(mail.text)).toContain('photo-6.jpg  2048x1536, 2.6 MB  (sent as "IMG_6.jpg")  not attached');
    expect(photosThatFit(photos, 0).size).toBe(0);
  });

  it('a photo whose file is gone is listed as missing and the rest are attached', () => {
    const mail = notificationEmail(enquiry, {
      from: 'a@b.test',
      to: 'c@d.test',
      photos: [photo(1, 800_000), { ...photo(2, 900_000), content: null, missing: true }],
    });
    expect(mail.attachments?.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
    expect(String(mail.text)).toMatch(/photo-2\.jpg .*MISSING: the file is not on the server$/m);
  });
});

describe('the notification says where the enquiry came from', () => {
  it('names the page it was sent from, the landing page and the source', () => {
    const text = textOf({
      ...enquiry,
      sentFrom: '/contact',
      landingPage: '/services/storm-weather',
      referrer: 'https://www.google.com',
      utmSource: 'gbp',
      utmMedium: 'organic',
      utmCampaign: 'winter storms',
    });
    expect(text).toContain('Sent from: /contact\nLanded on: /services/storm-weather, from gbp / organic, campaign "winter storms"');
  });

  it('says nothing of it when nothing was recorded', () => {
    expect(textOf(enquiry)).not.toMatch(/Sent from|Landed on/);
  });
});

describe('the follow-up with photos that came after the notification', () => {
  const photo = (position: number, bytes: number): PhotoForEmail => ({
    position,
    originalName: `IMG_${position}.jpg`,
    bytes,
    width: 2048,
    height: 1536,
    content: Buffer.alloc(bytes, position),
  });
  const followUp = (input: EnquiryForEmail, photos = [photo(1, 800_000), photo(2, 900_000)]) =>
    photosFollowUpEmail(input, { from: 'website@homecare.test', to: 'office@homecare.test', photos });

  it('is "More photos for" the reference, names the enquiry, says the photos came later and attaches them', () => {
    const mail = followUp({ ...enquiry, damageType: 'water-damage', postcode: 'G67 1AB' });
    expect(mail.subject).toBe('More photos for HC-7KQ-4MP');
    expect(mail.to).toBe('office@homecare.test');
    expect(mail.attachments?.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
      ['photo-1.jpg', 'image/jpeg'],
      ['photo-2.jpg', 'image/jpeg'],
    ]);
    const body = String(mail.text);
    expect(body).toMatch(/^Reference: HC-7KQ-4MP$/m);
    expect(body).toMatch(/^Name: +Jo Bloggs$/m);
    expect(body).toMatch(/^Subject: +Roof leak$/m);
    expect(body).toContain('These photos came after the first notification of this enquiry had gone out');
    expect(body).toContain('Photos: 2, attached.');
    expect(body).toContain('photo-2.jpg  2048x1536, 900 KB  (sent as "IMG_2.jpg")');
    // Not the message or the claim again: the notification has them.
    expect(body).not.toContain('Water is coming in.');
    expect(body).not.toContain('CLAIM DETAILS');
  });

  it("answers the notification's Message-ID and has its own, so a second send is the same message", async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const headers = headersOf(String((await transport.sendMail(followUp(enquiry))).message));
    const notificationId = notificationEmail(enquiry, { from: 'a@b.test', to: 'c@d.test' }).messageId;
    expect(headers).toContain(`In-Reply-To: ${notificationId}`);
    expect(headers).toContain(`References: ${notificationId}`);
    expect(headers).toMatch(/^Message-ID: <photos-7\.20260105090000000@homecare-web\.invalid>$/m);
    expect(headers).toMatch(/^Reply-To: Jo Bloggs <jo@example\.com>$/m);
    expect(headers).toMatch(/^X-Homecare-Reference: HC-7KQ-4MP$/m);
  });

  it('is as safe from header injection as the notification', async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const hostile = { ...enquiry, name: 'Jo\r\nBcc: victim@evil.test', email: 'jo@example.com\r\nBcc: victim@evil.test' };
    const headers = headersOf(String((await transport.sendMail(followUp(hostile))).message));
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).not.toMatch(/^Reply-To:/im);
  });

  it('lists the photos too large for one e-mail with the command that fetches them', () => {
    const mail = followUp(enquiry, [photo(1, 800_000), { ...photo(2, 9_000_000), content: null }]);
    expect(mail.attachments?.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg']);
    expect(String(mail.text)).toContain('On the server: npm run enquiries -- --photos 7 --out DIR');
  });

  it('the notification says when the photos follow in it, and attaches none', () => {
    const mail = notificationEmail(enquiry, { from: 'a@b.test', to: 'c@d.test', photos: [photo(1, 800_000)], photosToFollow: 1 });
    expect(mail.attachments).toBeUndefined();
    expect(String(mail.text)).toContain('Photos: 1, sent while this e-mail was on its way; they follow in a separate e-mail.');
  });
});

describe('urgent enquiries and instructions', () => {
  const instruction: EnquiryForEmail = {
    ...enquiry,
    name: 'Claims Desk',
    email: 'desk@insurer.example',
    phone: '0141 496 0456',
    subject: 'Instruction CLM-2026-0042',
    claimRole: 'loss-adjuster',
    insurer: 'Example Mutual',
    claimReference: 'CLM-2026-0042',
    damageDate: '2026-11-14',
    damageType: 'water-damage',
    postcode: 'G65 0AA',
    policyholderName: 'Ann Policy',
    policyholderPhone: '07700 900123',
    propertyAddress: '1 High Street\nKilsyth',
    vatRegistered: 'not-known',
    excess: '£250',
    desktopAssessment: 'yes',
    worsening: 'yes',
    habitable: 'no',
    vulnerable: 'not-sure',
  };

  it('an urgent one says so first: URGENT in the subject, and why in its first lines', async () => {
    const urgent = { ...enquiry, vulnerable: 'yes', habitable: 'yes' };
    expect(headersOf(await raw(urgent))).toMatch(/^Subject: URGENT: Enquiry HC-7KQ-4MP: Roof leak$/m);
    const lines = textOf(urgent).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'URGENT: call back first.',
      '- Someone living there is at particular risk (very old, very young or unwell).',
      '',
    ]);
    expect(textOf(urgent)).toMatch(/^Urgency: +Can stay tonight: Yes · Someone at risk: Yes$/m);
    // Not sure, or no answers at all: not urgent.
    const notSure = { ...enquiry, worsening: 'not-sure', habitable: 'not-sure', vulnerable: 'not-sure' };
    expect(headersOf(await raw(notSure))).toMatch(/^Subject: Enquiry HC-7KQ-4MP: Roof leak$/m);
    expect(textOf(notSure)).not.toContain('URGENT');
  });

  it('an instruction is set out as one block to forward: who instructs, their claim number, policyholder, property, VAT, excess, urgency', async () => {
    expect(notificationEmail(instruction, { from: 'w@homecare.test', to: 'o@homecare.test' }).subject).toBe(
      'URGENT: Instruction HC-7KQ-4MP: Water damage: Instruction CLM-2026-0042',
    );
    const body = textOf(instruction);
    const block = body.slice(body.indexOf('INSTRUCTION'), body.indexOf('\n\n', body.indexOf('INSTRUCTION')));
    expect(block.split('\n')).toEqual([
      'INSTRUCTION',
      'Instructed by:        Claims Desk, Loss adjuster, Example Mutual',
      'Contact:              desk@insurer.example, 0141 496 0456',
      'Their claim number:   CLM-2026-0042',
      'Our reference:        HC-7KQ-4MP',
      'Policyholder:         Ann Policy',
      'Policyholder phone:   07700 900123',
      'Property:             1 High Street',
      '                      Kilsyth',
      'Postcode:             G65 0AA',
      'VAT-registered:       Not known',
      'Excess:               £250',
      'Desktop assessment:   Yes, acceptable',
      'Damage:               Water damage on 14/11/2026',
      'Urgency:              URGENT. The damage is still getting worse. People cannot stay in the home tonight.',
    ]);
    expect(body).not.toContain('CLAIM DETAILS');
    // What was not given shows as a dash, so the block always has the same lines.
    const sparse = textOf({ ...instruction, excess: null, vatRegistered: null, desktopAssessment: null, worsening: null, habitable: null });
    expect(sparse).toMatch(/^Excess: +-$/m);
    expect(sparse).toMatch(/^VAT-registered: +-$/m);
    expect(sparse).toMatch(/^Urgency: +Someone at risk: Not sure$/m);
  });

  it('the acknowledgement to the instructing address pairs both references and carries nothing of the policyholder’s', () => {
    const ack = acknowledgementEmail(instruction, { from: 'website@homecare.test', replyTo: 'office@homecare.test' });
    expect(ack.subject).toBe('Instruction received: our reference HC-7KQ-4MP, your claim CLM-2026-0042: Example Homecare');
    const text = String(ack.text);
    expect(text).toContain('Our reference HC-7KQ-4MP is paired with your claim number CLM-2026-0042');
    for (const secret of ['Ann Policy', '07700 900123', 'High Street', 'Kilsyth', 'G65 0AA', '£250', 'Not known', 'at particular risk'])
      expect(text).not.toContain(secret);
    expect(String(ack.subject)).not.toContain('Ann');
  });

  it('an instruction waiting for its sender’s proof asks them to open the link and confirm it; a proven one just links the status', () => {
    const links = { status: 'https://www.example.test/track/7.abc', update: 'https://www.example.test/claim-update/7.def' };
    const waiting = String(
      acknowledgementEmail(instruction, { from: 'w@homecare.test', replyTo: 'o@homecare.test', links, confirmFor: 'Example Mutual' }).text,
    );
    expect(waiting).toContain(
      'To add this instruction to Example Mutual’s view of the claims it instructed, open the link below and confirm that you sent it.\nhttps://www.example.test/track/7.abc\n',
    );
    expect(waiting).not.toContain('claim-update');
    const proven = String(
      acknowledgementEmail(instruction, { from: 'w@homecare.test', replyTo: 'o@homecare.test', links, confirmFor: null }).text,
    );
    expect(proven).toContain('See where your repair stands at any time, without logging in:\nhttps://www.example.test/track/7.abc\n');
    expect(proven).not.toContain('Example Mutual');
  });

  it('a claim number that reads like words is not repeated: the plain acknowledgement instead', () => {
    for (const claimReference of ['Call 0800 now to claim your refund', 'FREE MONEY', 'https://evil.example/1', null]) {
      const ack = acknowledgementEmail({ ...instruction, claimReference }, { from: 'w@homecare.test', replyTo: 'o@homecare.test' });
      expect(ack.subject).toBe('We have your enquiry HC-7KQ-4MP: Example Homecare');
      if (claimReference) expect(String(ack.text)).not.toContain(claimReference);
    }
    // A homeowner's claim number is never repeated either.
    const homeowner = acknowledgementEmail(
      { ...instruction, claimRole: 'homeowner' },
      { from: 'w@homecare.test', replyTo: 'o@homecare.test' },
    );
    expect(String(homeowner.text)).not.toContain('CLM-2026-0042');
  });
});

describe('what would help us work with the person', () => {
  const needs = 'Wheelchair user: please use the side door.\nSpeak to my daughter Ann, 07700 900456, not after 6pm.';

  it('comes first of all, headed, before why it is urgent, the reference and the claim', () => {
    const text = textOf({ ...enquiry, noPhoneCalls: 'yes', supportNeeds: needs, worsening: 'yes', damageType: 'water-damage' });
    expect(text.split('\n').slice(0, 6)).toEqual([
      'SUPPORT NEEDS',
      'No phone calls, please.',
      'What would help: Wheelchair user: please use the side door.',
      '                 Speak to my daughter Ann, 07700 900456, not after 6pm.',
      '',
      'URGENT: call back first.',
    ]);
    const order = ['SUPPORT NEEDS', 'URGENT', 'Reference: HC-7KQ-4MP', 'CLAIM DETAILS', 'Message:'].map((heading) => text.indexOf(heading));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('shows either answer alone, and makes no claim block of itself', () => {
    expect(
      textOf({ ...enquiry, noPhoneCalls: 'yes' })
        .split('\n')
        .slice(0, 3),
    ).toEqual(['SUPPORT NEEDS', 'No phone calls, please.', '']);
    const wordsOnly = textOf({ ...enquiry, supportNeeds: 'Ring the bell twice.' });
    expect(wordsOnly.split('\n').slice(0, 3)).toEqual(['SUPPORT NEEDS', 'What would help: Ring the bell twice.', '']);
    expect(wordsOnly).not.toContain('No phone calls');
    expect(wordsOnly).not.toContain('CLAIM DETAILS');
  });

  it('is not there when nothing was said, and never goes back to the sender in the acknowledgement', () => {
    expect(textOf(enquiry)).not.toContain('SUPPORT NEEDS');
    expect(textOf(enquiry).startsWith('Reference: HC-7KQ-4MP')).toBe(true);
    const ack = acknowledgementEmail(
      { ...enquiry, noPhoneCalls: 'yes', supportNeeds: needs },
      { from: 'website@homecare.test', replyTo: 'office@homecare.test' },
    );
    for (const secret of ['Wheelchair', 'Ann', 'No phone calls']) expect(String(ack.text)).not.toContain(secret);
  });
});
