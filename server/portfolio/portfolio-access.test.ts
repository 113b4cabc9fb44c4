// Portfolio links and cookies against a real database: who they open, and everything that ends them.
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orm } from '@/server/base/db';
import { organisationPeople, organisations } from '@/server/base/db-schema';
import {
  markPortfolioUse,
  newLinkKey,
  PORTFOLIO_LINK_DAYS,
  portfolioLinkToken,
  portfolioSessionValue,
  viewerOfLinkToken,
  viewerOfSession,
} from '@/server/portfolio/portfolio-access';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const DAY_MS = 24 * 60 * 60_000;
const T0 = Date.parse('2026-03-02T10:00:00Z');
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

async function person(organisation: string, email: string) {
  const [org] = await orm(db)
    .insert(organisations)
    .values({ name: organisation, linkKey: newLinkKey(), createdMs: T0, updatedMs: T0 })
    .onConflictDoUpdate({ target: organisations.name, set: { updatedMs: T0 } })
    .returning({ id: organisations.id });
  const [row] = await orm(db)
    .insert(organisationPeople)
    .values({ organisationId: org!.id, email, emailKey: email, linkKey: newLinkKey(), createdMs: T0 })
    .returning({ id: organisationPeople.id });
  return { personId: row!.id, organisationId: org!.id };
}

const forged = (value: string) => value.replace(/\.(.)/, (_, first: string) => `.${first === 'A' ? 'B' : 'A'}`);

describe('a portfolio link and its cookie', () => {
  it('open the portfolio of the person’s organisation, and nothing when forged or swapped', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const bob = await person('Other Insurer plc', 'bob@other.example');
    const token = (await portfolioLinkToken(db, ann.personId))!;
    const session = (await portfolioSessionValue(db, ann.personId))!;
    expect(await viewerOfLinkToken(db, token, T0)).toEqual({
      personId: ann.personId,
      organisationId: ann.organisationId,
      organisationName: 'Loss Adjusters Ltd',
      email: 'ann@adjusters.example',
    });
    expect((await viewerOfSession(db, session, T0))?.organisationId).toBe(ann.organisationId);
    expect(await viewerOfLinkToken(db, forged(token), T0)).toBeNull();
    // A link is not a cookie, nor the other way round.
    expect(await viewerOfSession(db, token, T0)).toBeNull();
    expect(await viewerOfLinkToken(db, session, T0)).toBeNull();
    // Another person's id with this person's MAC.
    expect(await viewerOfSession(db, session.replace(/^[0-9]+/, String(bob.personId)), T0)).toBeNull();
    expect(await viewerOfSession(db, undefined, T0)).toBeNull();
  });

  it(`work ${PORTFOLIO_LINK_DAYS} days from their last use`, async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const session = (await portfolioSessionValue(db, ann.personId))!;
    const justBefore = T0 + PORTFOLIO_LINK_DAYS * DAY_MS - 1;
    expect(await viewerOfSession(db, session, justBefore)).not.toBeNull();
    expect(await viewerOfSession(db, session, justBefore + 1)).toBeNull();
    await markPortfolioUse(db, ann.personId, T0 + 20 * DAY_MS);
    expect(await viewerOfSession(db, session, justBefore + 1)).not.toBeNull();
    expect(await viewerOfSession(db, session, T0 + 50 * DAY_MS)).toBeNull();
  });

  it('end for one person with a new person key, and for everyone with a new organisation key', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const cat = await person('Loss Adjusters Ltd', 'cat@adjusters.example');
    const annSession = (await portfolioSessionValue(db, ann.personId))!;
    const catSession = (await portfolioSessionValue(db, cat.personId))!;
    await orm(db).update(organisationPeople).set({ linkKey: newLinkKey() }).where(eq(organisationPeople.id, ann.personId));
    expect(await viewerOfSession(db, annSession, T0)).toBeNull();
    expect(await viewerOfSession(db, catSession, T0)).not.toBeNull();
    await orm(db).update(organisations).set({ linkKey: newLinkKey() }).where(eq(organisations.id, cat.organisationId));
    expect(await viewerOfSession(db, catSession, T0)).toBeNull();
  });

  it('end when the person is marked revoked', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const token = (await portfolioLinkToken(db, ann.personId))!;
    await orm(db).update(organisationPeople).set({ revokedMs: T0 }).where(eq(organisationPeople.id, ann.personId));
    expect(await viewerOfLinkToken(db, token, T0)).toBeNull();
  });
});
