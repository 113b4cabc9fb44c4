// The words of a claim's two drying documents (the electricity statement and the certificate of
// dryness) and of the page an insurer opens to check them. The figures are in lib/drying-documents.ts.
import type { DryingScale } from '@/lib/drying-terms';

export const dryingDocumentsText = {
  statement: {
    title: 'Electricity statement: drying equipment',
    intro:
      'The electricity used by the drying machines we ran in your home, for your insurer. Each machine’s kWh is its rated power × the hours it ran × how many, or the reading of a plug-in meter where we recorded one.',
    machinesHeading: 'Machines',
    source: { rated: 'rated watts × hours', meter: 'plug-in meter reading' },
    total: (kwh: string) => `Total electricity used: ${kwh} kWh`,
    running:
      'Machines are still running: the figures are to the end of the period above, and a new statement is made at most once an hour.',
    cost: (rate: string, amount: string) => `At your unit rate of ${rate} p/kWh, the amount to claim: £${amount}`,
    standingCharge: 'Your standing charge is not included.',
    noRate:
      'No unit rate was given: this statement gives kWh only. Multiply the total by the unit rate on your electricity bill (p/kWh) for the amount to claim.',
  },
  certificate: {
    title: 'Certificate of dryness',
    intro:
      'Every affected place measured during drying has reached its drying goal: the reading of the same material in a dry part of the home (the "dry standard").',
    locationsHeading: 'Readings: first and last, against the goal',
    removedHeading: 'Equipment removed',
    noneRemoved: 'No equipment was recorded as removed.',
    confirmed: (date: string, by: string | null) =>
      by ? `Drying confirmed on ${date} by ${by}.` : `Drying confirmed on ${date} by the company's records.`,
  },
  scales: {
    wme: '%WME (pin meter)',
    relative: 'relative scale (non-invasive meter)',
  } satisfies Record<DryingScale, string>,
  /** The PDFs' own words: their facts, tables and footer. */
  pdf: {
    facts: {
      reference: 'Claim reference:',
      property: 'Property:',
      period: 'Period:',
      number: 'Document number:',
      issued: 'Issued:',
    },
    postcode: (postcode: string | null) => (postcode ? `postcode ${postcode}` : 'no postcode was given with the enquiry'),
    period: (from: string, to: string) => `${from} to ${to}`,
    contact: (phone: string, email: string) => `Telephone ${phone} · ${email}`,
    machineColumns: {
      machine: 'Machine',
      watts: 'Rated W',
      on: 'On',
      off: 'Off',
      hours: 'Hours',
      kwh: 'kWh',
      source: 'Source',
    },
    stillRunning: 'still running',
    /** The statement's source column; its introduction says what each means. */
    sources: { rated: 'rated W × hours', meter: 'meter reading' },
    locationColumns: {
      location: 'Location',
      material: 'Material',
      scale: 'Scale',
      first: 'First reading',
      last: 'Last reading',
      goal: 'Goal',
    },
    reading: (value: string, date: string) => `${value} on ${date}`,
    scales: { wme: '%WME', relative: 'relative' } satisfies Record<DryingScale, string>,
    scalesNote:
      'Scales: %WME is the wood moisture equivalent a pin meter reads; relative is a non-invasive meter’s own scale, compared only with a goal read on the same instrument.',
    readingsHeading: 'Every reading taken',
    readingColumns: { at: 'Visit', location: 'Location', material: 'Material', scale: 'Scale', reading: 'Reading', goal: 'Goal' },
    removedColumns: { machine: 'Machine', on: 'On', off: 'Off' },
    continued: (heading: string) => `${heading} (continued)`,
    issued: (dateTime: string, number: string) => `Issued ${dateTime} · Document number ${number}`,
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  },
  reference: (reference: string) => `Claim reference: ${reference}`,
  property: (postcode: string | null) => (postcode ? `Property: postcode ${postcode}` : 'Property: no postcode was given with the enquiry'),
  period: (from: string, to: string) => `Period: ${from} to ${to}`,
  issued: (date: string) => `Dated ${date}`,
  company: (legalName: string, registration: string) => `${legalName}, ${registration}`,
  verify: (url: string) => `To check these figures, open ${url}`,
  statementLink: 'Download the electricity statement (PDF)',
  statementRateLabel: 'Your unit rate from your electricity bill, p/kWh (optional)',
  statementRateHint: 'Between 1 and 200. Your standing charge is not included. Leave it empty for kWh only.',
  statementButton: 'Download the electricity statement (PDF)',
  certificateLink: 'Download the certificate of dryness (PDF)',
  tooMany: 'Too many documents were made for this claim today; the last one is still valid',
  badRate: 'The unit rate must be a number from 1 to 200 p/kWh, such as 24.5. Go back and correct it, or leave it empty.',
  verifyPage: {
    title: 'Check a drying document',
    intro: (legalName: string) =>
      `This is a document ${legalName} issued from a claim's drying record, with its figures as they were printed. The document you were given should carry the same number and the same figures.`,
    heading: (title: string, number: string) => `${title} ${number}`,
    notFound:
      'This address names no document we issued. Check that it was copied in full from the document, or ask the customer or the company for a copy.',
    issued: (at: string) => `Issued on ${at}.`,
    stands: 'No later issue replaces this document.',
    superseded: (number: string, at: string) =>
      `Superseded by ${number} on ${at}: the drying record changed after this document was issued. Its figures below are as they were printed.`,
    withdrawn: (at: string) => `Withdrawn on ${at}: a later reading was above its goal.`,
    resumed: (at: string) => `Withdrawn on ${at}: the claim went back to drying after this certificate was issued.`,
    deleted: (number: string, at: string) =>
      `Document ${number} was issued, but the record it was drawn from was deleted on ${at} (the customer asked, or the company's retention period ended): its figures are no longer held.`,
    fingerprint: (sha256: string) => `SHA-256 of the PDF as issued: ${sha256}`,
    fingerprintHint:
      'A file whose SHA-256 differs is not this document as issued (on Windows: Get-FileHash file.pdf; on macOS or Linux: shasum -a 256 file.pdf).',
    columns: {
      machine: 'Machine',
      rated: 'Rated',
      on: 'Switched on',
      off: 'Switched off',
      hours: 'Hours',
      kwh: 'kWh',
      source: 'From',
      location: 'Location',
      scale: 'Scale',
      first: 'First reading',
      last: 'Last reading',
      goal: 'Goal',
    },
    stillRunning: 'still running',
    watts: (watts: number) => `${watts} W`,
    reading: (value: string, date: string) => `${value} on ${date}`,
  },
} as const;
