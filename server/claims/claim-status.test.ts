// A claim's status from a real database: an insurer's or a loss adjuster's instruction carries its
// stamped times against the company's standards; a homeowner's enquiry carries nothing of the kind.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import type { ClaimStage } from '@/lib/claim-stages';
import { claimStatus, recordStageChange } from '@/server/claims/claim-status';
import { submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const at = (iso: string) => Date.parse(iso);
// Monday 2 February 2026 at 10:00 (GMT).
const receivedMs = at('2026-02-02T10:00:00Z');

const instruction = {
  subject: 'Instruction CLM-2026-0042',
  claim: 'open',
  claimRole: 'loss-adjuster',
  insurer: 'Example Mutual',
  claimReference: 'CLM-2026-0042',
  policyholderName: 'Ann Policy',
  policyholderPhone: '07700 900123',
  propertyAddress: '1 High Street\nKilsyth',
  postcode: 'G65 0AA',
  vatRegistered: 'no',
  desktopAssessment: 'no',
};

const change = (db: Client, id: number, stage: ClaimStage, iso: string) =>
  recordStageChange(db, id, { stage, waitingOn: null, nextDate: null, note: null, tellCustomer: true, source: 'staff' }, at(iso));

const confirmedStandards = { ...business.forInsurers, placeholder: false };

describe('claimStatus', () => {
  it('on a loss adjuster’s instruction, stamps the first contact and the survey against the company’s measured standards', async () => {
    const { id } = await submitEnquiryAt(db, receivedMs, instruction);
    await change(db, id, 'contacted', '2026-02-02T13:30:00Z');
    await change(db, id, 'survey-booked', '2026-02-02T13:31:00Z');
    await change(db, id, 'surveyed', '2026-02-05T11:00:00Z');
    const status = await claimStatus(db, id, { now: at('2026-02-06T09:00:00Z'), standards: confirmedStandards });
    expect(status?.stage).toBe('surveyed');
    expect(status?.insurer).toEqual({
      standardsConfirmed: true,
      stamps: [
        { stage: 'received', at: '2026-02-02T10:00:00.000Z', standard: null },
        {
          stage: 'contacted',
          at: '2026-02-02T13:30:00.000Z',
          standard: { term: 'First contact with the policyholder', detail: 'Within 4 working hours', outcome: { kind: 'met' } },
        },
        {
          stage: 'surveyed',
          at: '2026-02-05T11:00:00.000Z',
          standard: { term: 'Survey visit', detail: 'Within 2 working days', outcome: { kind: 'missed' } },
        },
        {
          stage: 'with-insurer',
          at: null,
          standard: {
            term: 'Report and reinstatement schedule',
            detail: 'Within 2 working days of the survey',
            outcome: { kind: 'due', by: '2026-02-09T17:00:00.000Z' },
          },
        },
      ],
    });
    // Still nothing of the enquiry beyond the reference, the stages and the times.
    expect(JSON.stringify(status)).not.toMatch(/Ann Policy|07700|High Street|G65|CLM-2026|Example Mutual|Jo Bloggs/);
  });

  it('while the standards are placeholders (as this build’s are), an instruction shows the times and no standard', async () => {
    const { id } = await submitEnquiryAt(db, receivedMs, { ...instruction, claimRole: 'insurer' });
    await change(db, id, 'contacted', '2026-02-03T16:00:00Z');
    const status = await claimStatus(db, id, { now: at('2026-03-01T12:00:00Z') });
    expect(status?.insurer).toEqual({
      standardsConfirmed: false,
      stamps: [
        { stage: 'received', at: '2026-02-02T10:00:00.000Z', standard: null },
        { stage: 'contacted', at: '2026-02-03T16:00:00.000Z', standard: null },
        { stage: 'surveyed', at: null, standard: null },
        { stage: 'with-insurer', at: null, standard: null },
      ],
    });
  });

  it('a homeowner’s enquiry, even with claim details, has no insurer part', async () => {
    const { id } = await submitEnquiryAt(db, receivedMs, { ...instruction, claimRole: 'homeowner' });
    await change(db, id, 'contacted', '2026-02-02T11:00:00Z');
    const status = await claimStatus(db, id, { now: at('2026-02-02T12:00:00Z'), standards: confirmedStandards });
    expect(status).toMatchObject({ stage: 'contacted', insurer: null });
    const plain = await submitEnquiryAt(db, receivedMs);
    expect((await claimStatus(db, plain.id, { standards: confirmedStandards }))?.insurer).toBeNull();
  });
});
