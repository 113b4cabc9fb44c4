import { business } from '@/content/business';

/** The about page's headings and the line that introduces the accreditations. */
export const aboutPage = {
  title: 'About Us',
  eyebrow: `Over ${business.yearsExperience} years of insurance repairs`,
  whoHeading: 'Who we are',
  claimHeading: 'How a claim works',
  insurersLink: { before: 'Handling the claim yourself?', label: 'For insurers and loss adjusters: how to instruct us' },
  accreditationsHeading: 'Our accreditations',
  accreditationsIntro:
    'Independent schemes check our work, our people and our safety record. Select a logo to read what each accreditation means for you.',
} as const;

export const aboutIntro: readonly string[] = [
  `${business.legalName} is an insurance repair and home maintenance contractor based in Cumbernauld. For more than ${business.yearsExperience} years we have restored homes across Glasgow, North Lanarkshire and the central belt of Scotland after water, storm, fire, impact and malicious damage.`,
  'Our joiners, plasterers, roofers, plumbers, electricians and decorators are directly employed and trained by us. That means one team, one standard of work and one point of contact from the first survey to the final coat of paint, rather than a chain of subcontractors.',
  'We are appointed by household insurers, loss adjusters and repair networks, and we also carry out planned maintenance and improvement work for homeowners who come to us directly.',
];

type ClaimStep = { title: string; text: string };

/** How a claim works: appointed by the insurer, a surveyor's visit, then the insurer pays less any excess. */
export const claimSteps: readonly ClaimStep[] = [
  {
    title: 'We are appointed',
    text: 'Once you report the damage, your insurer appoints us, either directly or through their repair network or loss adjuster. We contact you to arrange a visit, usually within one working day.',
  },
  {
    title: 'A surveyor visits',
    text: 'Our surveyor visits your home, inspects and photographs the damage, establishes the cause and prepares a detailed reinstatement schedule setting out the work needed to put things right.',
  },
  {
    title: 'Your insurer decides',
    text: 'We send the report, photographs and schedule to your insurer. If the claim is accepted, your insurer pays the repair costs, less any excess on your policy, which you pay to us.',
  },
  {
    title: 'We carry out the repair',
    text: 'We agree start dates that suit you, keep disruption to a minimum and keep you informed throughout. When the work is finished we walk round it with you before we sign off.',
  },
];
