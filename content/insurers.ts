/** The page for insurers, loss adjusters and repair networks (/insurers). */
export const insurersPage = {
  title: 'For Insurers and Loss Adjusters',
  eyebrow: 'Claims handlers, loss adjusters and repair networks',
  intro:
    'We have reinstated homes for insurers, loss adjusters and repair networks across the central belt of Scotland for over 30 years. Our own surveyors and directly employed tradesmen take a claim from first contact with the policyholder to the completion certificate, and keep you informed at every stage.',
  instructHeading: 'How to instruct us',
  instructSteps: [
    {
      title: 'Send the instruction',
      text: 'Send the enquiry form below with “Insurer” or “Loss adjuster” chosen, or e-mail the instruction with the policyholder’s details and your claim number.',
    },
    {
      title: 'We acknowledge it',
      text: 'You receive our enquiry reference straight away; it stays paired with your claim number on everything we send.',
    },
    {
      title: 'We contact the policyholder',
      text: 'We arrange the survey with the policyholder, and make safe first where the property needs it.',
    },
    {
      title: 'Report, then repair',
      text: 'You receive the report and reinstatement schedule to authorise; once you have, we carry out the works and report completion.',
    },
  ],
  instructionsEmailLabel: 'Instructions by e-mail',
  receiveHeading: 'What you receive',
  receive: [
    {
      title: 'Photo reports',
      text: 'Dated photographs of the damage and its cause at the survey, during the works and at completion.',
    },
    {
      title: 'Reinstatement schedules',
      text: 'Itemised schedules of work, priced to your agreed rates, separating insured damage from any work the policyholder orders privately.',
    },
    {
      title: 'Cause and validation',
      text: 'The surveyor’s account of the cause, with moisture readings, drying records or weather evidence where they apply.',
    },
    {
      title: 'Completion certificates',
      text: 'A signed completion certificate with the policyholder’s satisfaction note, and gas and electrical certificates where that work was done.',
    },
  ],
  standardsHeading: 'Response standards',
  standardsPlaceholder: 'These figures are placeholders until the company confirms its own standards.',
  coverageHeading: 'Coverage',
  referenceHeading: 'Your claim number and our reference',
  reference: [
    'Every enquiry sent through this site gets a reference such as HC-7KQ-M2P, shown on screen and, where possible, e-mailed back at once. Give your claim number in the form’s claim details and the two are stored together.',
    'Every report, schedule, invoice and certificate we send you carries both, so you can match our documents to your claim without asking us.',
  ],
  actionHeading: 'Send an instruction',
  actionText: 'The form opens with the claim details ready for your claim number and the policyholder’s postcode.',
  insurerLabel: 'Instruct us as an insurer',
  lossAdjusterLabel: 'Instruct us as a loss adjuster',
} as const;
