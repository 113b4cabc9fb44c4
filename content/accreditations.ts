/**
 * The ten accreditations on the About page. Logos are our own neutral placeholders
 * (public/accreditations/*-placeholder.svg): replace them with each scheme's artwork once the
 * company has confirmed its membership and the scheme's logo-use rules.
 */
export type Accreditation = {
  /** Stable key, also the logo's file stem. */
  id: string;
  name: string;
  description: string;
  /** Path under public/. */
  logo: string;
  /** The scheme's own website, where it has one. */
  website?: string;
};

const logo = (id: string) => `/accreditations/${id}-placeholder.svg`;

export const accreditations: readonly Accreditation[] = [
  {
    id: 'crb-checked',
    name: 'CRB Checked',
    description:
      'Every tradesman who works inside a customer’s home holds a current criminal record disclosure, renewed on a regular cycle. In Scotland these checks are issued by Disclosure Scotland, so you know who is coming through your door.',
    logo: logo('crb-checked'),
    website: 'https://www.mygov.scot/organisations/disclosure-scotland',
  },
  {
    id: 'sepa-approved',
    name: 'SEPA Approved',
    description:
      'We are registered with the Scottish Environment Protection Agency as a carrier of waste. Water-damaged plaster, flooring and fire debris are removed from your home and disposed of lawfully, with a waste transfer note for every load.',
    logo: logo('sepa-approved'),
    website: 'https://www.sepa.org.uk/',
  },
  {
    id: 'select-contractor',
    name: 'Select Contractor',
    description:
      'Our electrical work is carried out to BS 7671 by a member of SELECT, the trade association for the electrical contracting industry in Scotland. Installations are inspected, tested and certified before we hand them back.',
    logo: logo('select-contractor'),
    website: 'https://www.select.org.uk/',
  },
  {
    id: 'trustmark',
    name: 'TrustMark',
    description:
      'TrustMark is the UK Government endorsed quality scheme for work in and around the home. Registered businesses are vetted for technical competence, customer service and trading practices, and customers have access to a complaints process.',
    logo: logo('trustmark'),
    website: 'https://www.trustmark.org.uk/',
  },
  {
    id: 'cgf-approved',
    name: 'CGF Approved',
    description:
      'As a CGF approved contractor our workmanship is backed by an independent guarantee, so the repairs we make to your home stay protected even after the job is signed off.',
    logo: logo('cgf-approved'),
  },
  {
    id: 'constructionline',
    name: 'ConstructionLine',
    description:
      'Constructionline pre-qualifies suppliers for public and private sector buyers. Our company, financial, insurance and health and safety information is checked once and kept up to date, which is why insurers and housing providers can appoint us quickly.',
    logo: logo('constructionline'),
    website: 'https://www.constructionline.co.uk/',
  },
  {
    id: 'fmb-member',
    name: 'FMB Member',
    description:
      'The Federation of Master Builders is the largest trade association in the UK building industry. Members are independently inspected and vetted before joining and agree to follow the federation’s code of practice.',
    logo: logo('fmb-member'),
    website: 'https://www.fmb.org.uk/',
  },
  {
    id: 'safe-contractor',
    name: 'Safe Contractor',
    description:
      'Safe Contractor audits our health and safety policies, procedures and documentation every year. One independent assessment replaces the separate questionnaires each customer would otherwise send us.',
    logo: logo('safe-contractor'),
    website: 'https://www.safecontractor.com/',
  },
  {
    id: 'gas-safe',
    name: 'Gas Safe',
    description:
      'Gas Safe Register is the official list of businesses legally allowed to work on gas appliances in the UK. Any boiler, hob or gas pipework we disturb during a repair is reconnected and tested by a registered engineer who carries a Gas Safe ID card.',
    logo: logo('gas-safe'),
    website: 'https://www.gassaferegister.co.uk/',
  },
  {
    id: 'chas',
    name: 'CHAS',
    description:
      'CHAS, the Contractors Health and Safety Assessment Scheme, assesses how we manage health and safety against the Common Assessment Standard used by clients across the UK construction industry.',
    logo: logo('chas'),
    website: 'https://www.chas.co.uk/',
  },
];

/** The footer's contractor-safety badge and its accreditation-notice dialog, shown on every page. */
export const accreditationDialog = {
  logoAlt: (name: string) => `${name} logo`,
  websiteLabel: 'Visit Website',
} as const;

export const accreditationNotice = {
  badgeSrc: '/accreditations/safe-contractor-placeholder.svg',
  badgeButtonAlt: 'Safe Contractor accredited: view accreditation notice',
  badgeAlt: 'Safe Contractor badge',
  title: 'Accreditation Notice',
  text: (companyName: string) =>
    `${companyName} is accredited under the Safe Contractor scheme. The scheme audits contractors' health and safety policies, procedures and documentation, and reduces the need for multiple customer questionnaires: one independent assessment answers them all.`,
  visitLabel: 'Visit Website',
} as const;
