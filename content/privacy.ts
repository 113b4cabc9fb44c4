import { business } from '@/content/business';

type PrivacySection = { id: string; title: string; paragraphs: readonly string[]; list?: readonly string[] };

export const privacyPage = {
  title: 'Privacy Policy',
  intro: 'How we collect, use and protect your personal information.',
  contentsLabel: 'On this page',
} as const;

export const privacyUpdated = 'Last updated: 26 November 2026';

/** How long enquiries are kept; the server deletes older ones daily (server/upkeep/retention.ts). */
export const ENQUIRY_RETENTION_MONTHS = 12;
/** How long the site's own error log is kept (it holds client addresses); enforced the same way. */
export const ERROR_LOG_RETENTION_DAYS = 90;

/** The five sections of the privacy policy, in this order. */
export const privacySections: readonly PrivacySection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    paragraphs: [
      `This website is run by ${business.legalName}, an insurance repair and home maintenance contractor at ${business.address.lines.join(', ')}. We are the controller of the personal information described in this policy.`,
      `If you have a question about this policy or about your information, write to us at the address above or e-mail ${business.email}.`,
    ],
  },
  {
    id: 'what-we-collect',
    title: 'What information we collect',
    paragraphs: ['When you send us an enquiry through this website, or contact us by telephone or e-mail, we collect:'],
    list: [
      'your name, e-mail address and, if you give it, your telephone number;',
      'the subject and content of your message, including any details of your property or insurance claim you choose to share;',
      'if you answer them, how urgent the damage is: whether it is still getting worse, whether people can stay in the home tonight, and whether anyone living there is at particular risk (very old, very young or unwell);',
      'if you tell us, anything that would help us work with you: access needs, someone we should speak to for you, times not to call, or that you would rather not be phoned;',
      'if you instruct us as an insurer or loss adjuster, the policyholder’s name and telephone number, the property’s address, whether the policyholder is registered for VAT, the policy excess and whether a desktop assessment from photos is acceptable. We use these only to carry out the instruction;',
      'technical information needed to protect the contact form from spam and to keep the website working, such as your IP address, browser type and a bot-protection score;',
      'where your enquiry came from: the page of this website you sent it from, the page your visit began on, the name of the website that linked you to us (such as google.com, never the page you were reading there) and any campaign tags in the link you followed. We keep this with your enquiry only to learn which of our pages and listings bring enquiries. It is not stored in cookies or on your device, and it is not used to identify you or to follow you elsewhere.',
      'while you fill in the enquiry form, nothing more than a draft on your own device: what you have typed is kept in your browser’s local storage and the photos you chose (already made smaller and without their location or camera details) in its IndexedDB storage, so that a reload, a closed tab or a lost signal does not lose them. The draft never leaves your device until you press Send, it is deleted when your enquiry has been sent or when you press “Clear form”, and it expires after 24 hours. If your browser does not allow this storage (private browsing, for instance), the form works as usual without a draft.',
      'if you press Send with no signal, the claim (what you typed and your photos, made smaller as above) is kept in this website’s own storage on your phone until it can be sent, and the draft is deleted then. Once we have the claim it is deleted from the phone. If it cannot be sent within 30 days it is deleted unsent, and the next page of this website you open says so. If we could not accept it, what you typed (never the photos) stays on the phone for 24 hours so you can correct it and send it again.',
    ],
  },
  {
    id: 'what-we-do',
    title: 'What we do with your information',
    paragraphs: [
      'We use your information to reply to your enquiry, to arrange surveys and repairs, and to liaise with your insurer, loss adjuster or repair network about your claim. The legal basis is our legitimate interest in answering enquiries and, where work goes ahead, the performance of a contract with you or your insurer.',
      `We do not sell your information or use it for marketing without your consent. We share it only with those who need it to deliver your repair (your insurer or their agents, and service providers who host our systems under contract), or where the law requires it. Enquiries that do not lead to work are deleted after ${ENQUIRY_RETENTION_MONTHS} months, and the website’s technical error records after ${ERROR_LOG_RETENTION_DAYS} days; job records are kept for six years to meet our legal and insurance obligations.`,
      'We ask whether anyone living in the property is at particular risk only so that we can call back and attend first where someone’s health or safety depends on it. It is a fact about a person’s circumstances, so it is optional, you can answer “not sure”, and we keep it with your enquiry and no longer: it is deleted with the enquiry (after the period above, or sooner when you ask us to delete your information). It is never repeated in the e-mail we send back to you, and neither is anything about a policyholder.',
      `We ask whether anything would help us work with you only so that we can make the repair work for you: how to get in and around your home, who to speak to, and when and how to contact you. It is optional. We keep it with your enquiry and no longer: it is deleted with the enquiry after ${ENQUIRY_RETENTION_MONTHS} months, or sooner when you ask us to delete your information.`,
      'When you follow your repair on “Where’s my repair?”, we keep where it stands, the notes we write for you, any photos you add, and when your link to it was opened (counted by the minute, with nothing about your device), with your enquiry and for as long as it is kept. The link in our e-mails opens your claim’s status without a password: please do not share it with anyone you would not show your claim to.',
      'Your enquiry, including any photos you send, is kept on our own web server in files that only the website itself and our administrator can open: nobody else with access to the machine can read them, and your photos are never published or shown on this website. Our backups of it are encrypted before they leave the server and can be opened only with a key we keep away from the server, so a copy that went astray would reveal nothing. Each backup is kept for a week, so information we delete is gone from our backups within a week too.',
    ],
  },
  {
    id: 'your-rights',
    title: 'Your Rights',
    paragraphs: [
      'Under UK data protection law you have the right to ask for a copy of the information we hold about you, to have inaccurate information corrected, and in some circumstances to have it deleted or its use restricted, or to object to how we use it.',
      'To request a copy of the information we hold about you, write to us at the address above, enclosing an administration payment of £10. We will reply within one month of receiving your request.',
      'If you are unhappy with how we have handled your information, you can complain to the Information Commissioner’s Office at ico.org.uk or on 0303 123 1113.',
    ],
  },
  {
    id: 'other-websites',
    title: 'Other Websites',
    paragraphs: [
      'Our website contains links to other websites, such as those of the accreditation schemes we belong to. This privacy policy applies only to our website. When you follow a link to another site, read that site’s own privacy policy.',
    ],
  },
];
