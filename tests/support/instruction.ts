// An insurer's or loss adjuster's instruction as the contact form (and the /insurers instruction form)
// sends it: what submitEnquiry needs, over typedEnquiry, for a claim with an instructing role.

/** The fields of an instruction from `email`, by an insurer unless `role` says a loss adjuster. */
export const instructionFields = (email: string, role: 'insurer' | 'loss-adjuster' = 'insurer', claimReference = 'CLM-77') => ({
  email,
  subject: `Instruction ${claimReference}`,
  message: 'Escape of water, kitchen ceiling.',
  claimRole: role,
  claimReference,
  damageType: 'water-damage',
  policyholderName: 'Ann Policy',
  policyholderPhone: '07700 900123',
  propertyAddress: '1 High Street\nKilsyth',
  postcode: 'G65 0AA',
  vatRegistered: 'no',
  excess: '250',
  desktopAssessment: 'no',
});
