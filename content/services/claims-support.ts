import { servicePage, type Service } from '@/content/services/service';

export const claimsSupport: Service = {
  id: 'claims-support',
  title: 'Insurance Claims Support',
  summary:
    'Most homeowners make an insurance claim once or twice in a lifetime; we work with insurers, loss adjusters and repair networks every day. We prepare the reinstatement schedule, photographs and reports your insurer needs and keep you informed from survey to sign-off.',
  includes: [
    'Surveys with photographs and cause of damage',
    'Itemised reinstatement schedules',
    'Liaison with your insurer, loss adjuster or network',
    'One point of contact from start to finish',
  ],
  serviceType: 'Insurance claim reinstatement',
  page: servicePage('claims-support', 'Insurance Claims Support', {
    title: 'Home Insurance Claim Repairs and Support in Glasgow',
    description:
      'Making a home insurance claim? We survey the damage, prepare the photographs and reinstatement schedule your insurer needs, and carry out the repair, across Glasgow and the central belt.',
    keywords: [
      'home insurance claim',
      'reinstatement schedule',
      'insurance approved contractor',
      'loss adjuster',
      'insurance repair contractor',
    ],
  }),
  covers: [
    'An insurance claim asks a lot of questions at a stressful time: what caused the damage, what needs to be done, what it will cost, and who is going to do it. Insurers decide a claim on evidence, and good evidence early is what makes a claim quick.',
    'We survey the damage, establish and record the cause, photograph it, and prepare an itemised reinstatement schedule in the format insurers and loss adjusters work with. If your insurer appoints us, we carry out the repair with our own tradesmen and keep you and them informed until it is signed off.',
  ],
  steps: [
    {
      title: 'Appointment',
      text: 'Your insurer appoints us directly or through their network or loss adjuster; you can also tell your insurer you would like us to handle the repair.',
    },
    {
      title: 'Survey and report',
      text: 'A surveyor inspects and photographs the damage, establishes the cause and prepares the reinstatement schedule.',
    },
    {
      title: 'Decision',
      text: 'Your insurer reviews the report. If the claim is accepted, they pay the repair costs, less any excess on your policy.',
    },
    {
      title: 'Repair and sign-off',
      text: 'We agree dates with you, carry out the work, and send the completion photographs and certificate to your insurer.',
    },
  ],
  firstHours: [
    'Make the property safe: water off, electrics off where they may be affected, and keep away from anything that could fall.',
    'Photograph the damage, and what caused it, before anything is moved or thrown away.',
    'Tell your insurer as soon as you can and write down the claim number.',
    'Do only the work needed to stop the damage getting worse, and keep every receipt.',
    'Do not agree to a full repair before your insurer has approved it.',
  ],
  insurance: [
    'You do not need to know your policy in detail: tell us your insurer and claim number and we will work to their process. We never ask you to pay for work your insurer has accepted, other than the policy excess.',
    'Every enquiry gets a reference; if you give us your insurer’s claim number with it, both are on everything we send your insurer, so the two can always be matched.',
  ],
  damageType: null,
};
