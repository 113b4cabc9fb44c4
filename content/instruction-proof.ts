// The words of an instruction's proof (server/claims/instruction-proof.ts), in a module of their own so
// the pages that do not show them (the look-up among them) do not carry them in their JavaScript.

/**
 * The status page of an instruction from an address at a registered organisation's domain, opened by
 * the acknowledgement's link, until its sender confirms it (server/claims/instruction-proof.ts).
 */
export const instructionProofText = {
  /** The acknowledgement's line before the status link, while the instruction waits for proof. */
  acknowledgement: (organisation: string) =>
    `To add this instruction to ${organisation}’s view of the claims it instructed, open the link below and confirm that you sent it.`,
  heading: 'Did you send this instruction?',
  body: (organisation: string) =>
    `It came from an address at one of ${organisation}’s domains. Once you confirm that you sent it, it appears in ${organisation}’s view of the claims it instructed.`,
  button: (organisation: string) => `Confirm the instruction for ${organisation}`,
  confirmed: (organisation: string) => `Confirmed: ${organisation} sees this claim in its view of the claims it instructed.`,
  notConfirmed: 'This page could not confirm the instruction. Open the link in the acknowledgement e-mail again.',
  /** The staff page's line about the instruction. */
  unconfirmed: (domain: string, organisation: string) =>
    `Instruction from an address at ${domain}, not yet confirmed: ${organisation} does not see it until its sender confirms it from the acknowledgement, or the company confirms it here or in the CRM.`,
  companyButton: (organisation: string) => `Confirm that ${organisation} instructed this claim`,
  proven: (organisation: string, proof: 'session' | 'mailbox' | 'company') =>
    `Instructed by ${organisation}, ${
      proof === 'session' ? 'sent signed in to its view' : proof === 'mailbox' ? 'confirmed by its sender' : 'confirmed by the company'
    }.`,
} as const;
