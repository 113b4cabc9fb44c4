// The staff page's Save to `dried` against a real database: refused, naming the location, while one
// is above its drying goal; saved once every location has met its goal.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staffPage } from '@/content/staff-page';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimSessionValue } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { claimStatus } from '@/server/claims/claim-status';
import { recordDryingVisit } from '@/server/claims/drying/record';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const visit = (visitAt: string, kitchen: number) => ({
  reference: 'HC-ABC-DEF',
  visitAt,
  readings: [
    { location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value: kitchen, goal: 12 },
    { location: 'Hall floor', material: 'screed' as const, scale: 'relative' as const, value: 100, goal: 120 },
  ],
  equipment: [],
});

describe('the staff page’s Save to dried', () => {
  it('is refused naming the location above its goal, and saved once every location has met it', async () => {
    await submitEnquiry(db, { subject: 'Burst pipe', message: 'Water everywhere.' });
    const id = 1;
    const reference = enquiryReference(id);
    const now = Date.now();
    const pages = createClaimPages({ db: async () => db, now: () => now, tellCrm: false });
    const staff = (await claimSessionValue(db, 'update', id, now))!;
    const save = (confirmedBy = 'Sam Fitter') => {
      const form = new FormData();
      form.append('formToken', newFormToken());
      form.append('stage', 'dried');
      form.append('confirmedBy', confirmedBy);
      return pages.saveUpdate(reference, staff, form);
    };

    expect(await save()).toMatchObject({ kind: 'refused', errors: { stage: staffPage.noDryingReadings } });
    const first = new Date(now - 3 * 86_400_000).toISOString();
    await recordDryingVisit(db, id, visit(first, 28), { source: 'crm', eventId: 'msg_1', now });
    expect(await save()).toMatchObject({
      kind: 'refused',
      message: staffPage.invalid,
      errors: { stage: 'Not dried yet: Kitchen wall, plaster is above its drying goal' },
      values: { stage: 'dried' },
    });
    expect((await claimStatus(db, id))?.stage).toBe('received');

    await recordDryingVisit(db, id, visit(new Date(now - 3_600_000).toISOString(), 12), { source: 'crm', eventId: 'msg_2', now });
    expect(await save('  ')).toMatchObject({ kind: 'refused', errors: { confirmedBy: staffPage.confirmedByMissing } });
    expect(await save()).toMatchObject({ kind: 'saved', message: staffPage.saved('Dried: ready for repairs') });
    expect((await claimStatus(db, id))?.stage).toBe('dried');
  });
});
