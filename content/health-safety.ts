import { business } from '@/content/business';

export const healthSafetyPage = {
  title: 'Health and Safety Policy',
  eyebrow: 'Working safely in your home',
  commitmentsHeading: 'Our safety commitments',
} as const;

export const healthSafetyIntro: readonly string[] = [
  `Our work takes us into occupied homes, onto roofs and into buildings that have been damaged by water, fire or impact. ${business.legalName} treats the health and safety of our employees, our customers and the public as the first consideration in everything we do.`,
  'Our written policy sets out who is responsible for health and safety in the company, how we assess and control the risks of each job and how we make sure every tradesman has the training and equipment to work safely. It is reviewed every year and whenever the law or our work changes.',
];

export const policyDocument = {
  href: '/documents/health-and-safety-policy.pdf',
  label: 'Read our Health and Safety Policy (PDF)',
} as const;

type SafetyCommitment = { title: string; text: string };

/** The four safety commitments, in this order: PPE, regular training, risk assessments, Safe Contractor accreditation. */
export const safetyCommitments: readonly SafetyCommitment[] = [
  {
    title: 'Personal protective equipment',
    text: 'Every tradesman is issued with the protective equipment their work needs, from safety boots and eye protection to fitted respiratory protection for dust and soot, and is shown how to use and look after it.',
  },
  {
    title: 'Regular training',
    text: 'Our people hold CSCS cards and receive induction, toolbox talks and refresher training in working at height, asbestos awareness, manual handling and the safe use of tools and access equipment.',
  },
  {
    title: 'Risk assessments',
    text: 'Each job is surveyed and risk assessed before work starts, with method statements for higher-risk tasks, so the hazards in your home are controlled for you, your family and our team.',
  },
  {
    title: 'Safe Contractor accreditation',
    text: 'Our health and safety policies, procedures and documentation are independently audited each year under the Safe Contractor scheme.',
  },
];
