// A claim's status from a real database: an insurer's or a loss adjuster's instruction carries its
// stamped times against the company's standards; a homeowner's enquiry carries nothing of the kind.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { staffPage } from '@/content/staff-page';
import type { ClaimStage } from '@/lib/claim-stages';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimSessionValue } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { claimStatus, recordStageChange, type StageChange } from '@/server/claims/claim-status';
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

describe('recordStageChange: a claim shows its latest change by the time it happened', () => {
  const crm = (stage: ClaimStage, iso: string, more: Partial<StageChange> = {}): StageChange => ({
    stage,
    waitingOn: null,
    nextDate: null,
    note: null,
    tellCustomer: true,
    source: 'crm',
    at: at(iso),
    ...more,
  });
  /** The stages the customer's e-mails were queued for, in the order queued. */
  const queuedEmails = async (id: number) =>
    (
      await db.execute({
        sql: `SELECT c.stage FROM enquiry_notifications n JOIN claim_stage_changes c ON c.id = n.stage_change_id
              WHERE n.kind = 'stage' AND n.enquiry_id = ? ORDER BY n.id`,
        args: [id],
      })
    ).rows.map((row) => row.stage);

  it('a change two minutes older than the one shown, recorded after it: in the timeline at its own time, not the stage, no e-mail', async () => {
    const { id } = await submitEnquiryAt(db, receivedMs, instruction);
    const booked = crm('survey-booked', '2026-02-02T13:31:00Z', { nextDate: '2026-02-04', waitingOn: 'us', eventId: 'msg_booked' });
    const late = crm('contacted', '2026-02-02T13:29:00Z', {
      nextDate: '2026-02-03',
      waitingOn: 'customer',
      note: 'We rang.',
      eventId: 'msg_late',
    });
    expect(await recordStageChange(db, id, booked, at('2026-02-02T13:31:01Z'))).toBe('current');
    expect(await recordStageChange(db, id, late, at('2026-02-02T13:33:00Z'))).toBe('late');
    expect(await recordStageChange(db, id, late, at('2026-02-02T13:40:00Z'))).toBe('already-applied');

    const status = await claimStatus(db, id, { now: at('2026-02-02T14:00:00Z'), standards: confirmedStandards });
    expect(status).toMatchObject({ stage: 'survey-booked', nextDate: '2026-02-04', waitingOn: 'us' });
    expect(status?.timeline).toEqual([
      { stage: 'received', at: '2026-02-02T10:00:00.000Z', note: null },
      { stage: 'contacted', at: '2026-02-02T13:29:00.000Z', note: 'We rang.' },
      { stage: 'survey-booked', at: '2026-02-02T13:31:00.000Z', note: null },
    ]);
    // An insurer sees the first contact when it happened, not when the CRM's retry got through.
    expect(status?.insurer?.stamps[1]).toMatchObject({ stage: 'contacted', at: '2026-02-02T13:29:00.000Z' });
    expect(await queuedEmails(id)).toEqual(['survey-booked']);
  });

  it('the same two in the order they happened: each the stage in its turn, two e-mails', async () => {
    const { id } = await submitEnquiryAt(db, receivedMs);
    expect(await recordStageChange(db, id, crm('contacted', '2026-02-02T13:29:00Z'), at('2026-02-02T13:29:01Z'))).toBe('current');
    expect(await recordStageChange(db, id, crm('survey-booked', '2026-02-02T13:31:00Z'), at('2026-02-02T13:31:01Z'))).toBe('current');
    expect((await claimStatus(db, id))?.stage).toBe('survey-booked');
    expect(await queuedEmails(id)).toEqual(['contacted', 'survey-booked']);
  });

  it('a Save on the staff page counts with its save time', async () => {
    const { id } = await submitEnquiryAt(db, receivedMs);
    let clock = at('2026-02-02T13:35:00Z');
    const pages = createClaimPages({ db: async () => db, now: () => clock, tellCrm: false });
    const save = async (stage: ClaimStage) => {
      const form = new FormData();
      form.set('formToken', newFormToken());
      form.set('stage', stage);
      return pages.saveUpdate(enquiryReference(id), (await claimSessionValue(db, 'update', id, clock))!, form);
    };
    await recordStageChange(db, id, crm('survey-booked', '2026-02-02T13:31:00Z'), at('2026-02-02T13:34:00Z'));
    // Saved after the CRM's change happened: the claim is at what was saved, and the customer is told.
    expect(await save('works-booked')).toMatchObject({ kind: 'saved', message: staffPage.saved('Works booked') });
    expect((await claimStatus(db, id))?.timeline.at(-1)).toEqual({ stage: 'works-booked', at: '2026-02-02T13:35:00.000Z', note: null });

    // A CRM whose clock runs two minutes ahead of the site's sends a change timed after the next Save.
    await recordStageChange(db, id, crm('surveyed', '2026-02-02T13:38:00Z'), at('2026-02-02T13:36:00Z'));
    clock = at('2026-02-02T13:37:00Z');
    expect(await save('on-hold')).toMatchObject({ kind: 'saved', message: staffPage.savedBehind('On hold', 'Surveyed') });
    const status = await claimStatus(db, id);
    expect(status?.stage).toBe('surveyed');
    expect(status?.timeline.map((entry) => [entry.stage, entry.at])).toEqual([
      ['received', '2026-02-02T10:00:00.000Z'],
      ['survey-booked', '2026-02-02T13:31:00.000Z'],
      ['works-booked', '2026-02-02T13:35:00.000Z'],
      ['on-hold', '2026-02-02T13:37:00.000Z'],
      ['surveyed', '2026-02-02T13:38:00.000Z'],
    ]);
    expect(await queuedEmails(id)).toEqual(['survey-booked', 'works-booked', 'surveyed']);
  });
});
