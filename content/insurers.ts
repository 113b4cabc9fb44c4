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
      text: 'Open the instruction form below: with “Insurer” or “Loss adjuster” chosen it asks for everything we need in one go. Or e-mail the instruction with the policyholder’s details and your claim number.',
    },
    {
      title: 'We acknowledge it',
      text: 'You see our reference on screen at once, and an e-mail to your address pairs it with your claim number; it carries nothing of the policyholder’s. The two stay paired on everything we send.',
    },
    {
      title: 'We contact the policyholder',
      text: 'We arrange the survey with the policyholder, or assess from photos where you told us a desktop assessment will do, and make safe first where the property needs it.',
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
      term: 'Photo reports',
      detail: 'Dated photographs of the damage and its cause at the survey, during the works and at completion.',
    },
    {
      term: 'Reinstatement schedules',
      detail:
        'Itemised schedules of work, priced to your agreed rates, separating insured damage from any work the policyholder orders privately.',
    },
    {
      term: 'Cause and validation',
      detail: 'The surveyor’s account of the cause, with moisture readings, drying records or weather evidence where they apply.',
    },
    {
      term: 'Completion certificates',
      detail:
        'A signed completion certificate with the policyholder’s satisfaction note, and gas and electrical certificates where that work was done.',
    },
  ],
  standardsHeading: 'Response standards',
  standardsPlaceholder: 'These figures are placeholders until the company confirms its own standards.',
  coverageHeading: 'Coverage',
  referenceHeading: 'Your claim number and our reference',
  reference: [
    'Every enquiry sent through this site gets a reference such as HC-7KQ-M2P, shown on screen and, where possible, e-mailed back at once. Give your claim number in the form’s claim details and the two are stored together; the e-mail back to you names both.',
    'Every report, schedule, invoice and certificate we send you carries both, so you can match our documents to your claim without asking us.',
  ],
  formHeading: 'What the instruction form asks',
  formIntro:
    'Your own name, e-mail and telephone are the claims handler’s; the claim details then ask for the rest, so nothing has to follow by e-mail:',
  formFields: [
    'your claim number, the insurer, the type and date of the damage;',
    'the policyholder’s name and telephone (required);',
    'the property’s address and postcode (required; the postcode is checked);',
    'whether the policyholder is registered for VAT (yes, no or not known) and the excess, if known;',
    'whether a desktop assessment from photos is acceptable;',
    'how urgent it is: whether the damage is still getting worse, whether the policyholder can stay in the home tonight, and whether anyone there is at particular risk. Any of those makes it urgent: we call back first.',
  ],
  formPhotos: 'Add up to six photos of the damage if you have them.',
  actionHeading: 'Send an instruction',
  actionText:
    'The form opens with your role chosen and the instruction’s fields showing: the policyholder, the property, VAT, the excess and whether a desktop assessment will do.',
  insurerLabel: 'Instruct us as an insurer',
  lossAdjusterLabel: 'Instruct us as a loss adjuster',
} as const;
