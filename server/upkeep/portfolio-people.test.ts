// The portfolio's personal data against a real database: a person given a link and their uses are in
// their subject access export, go with an erasure of their address, and with retention when unused.
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkFor, registerOrganisation } from '@/server/portfolio/organisations';
import { logPortfolioAccess, newAddressLink, newPortfolioLink, openPortfolioLink } from '@/server/portfolio/portfolio-access';
import { erasePersonalData, exportPersonalData } from '@/server/upkeep/data-requests';
import { purgeExpired } from '@/server/upkeep/retention';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const T0 = Date.parse('2026-01-10T10:00:00Z');
const DAY_MS = 24 * 60 * 60_000;
let db: Client;
let dir: string;
let cleanup: () => void;
let organisationId: number;
beforeEach(async () => {
  ({ db, dir, cleanup } = await tempDatabase());
  organisationId = (
    (await registerOrganisation(db, { name: 'Loss Adjusters Ltd', domains: ['la.example'], standards: [] }, T0)) as { id: number }
  ).id;
});
afterEach(() => cleanup());

/** A link for the address (or the office), opened as it was given (a session), last used at `openedAt`: the person's id. */
async function personOpening(address: string | null, givenAt: number, openedAt: number) {
  const made = (await linkFor(db, 'la.example', address, givenAt)) as { token: string };
  const opening = await openPortfolioLink(db, made.token, givenAt, 'Firefox');
  if (opening.kind !== 'opened') throw new Error(`the link did not open: ${opening.kind}`);
  const personId = opening.viewer.personId;
  await db.execute({ sql: 'UPDATE organisation_people SET last_used_ms = ? WHERE id = ?', args: [openedAt, personId] });
  await logPortfolioAccess(db, { organisationId, personId, action: 'opened', detail: 'state=open', now: openedAt });
  return personId;
}

const count = async (table: string) => Number((await db.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
const photos = () => ({ photosRoot: path.join(dir, 'photos'), outboxDir: path.join(dir, 'outbox') });

describe('the portfolio’s personal data', () => {
  it('a subject access export has the address’s links and their uses; an erasure deletes them and nobody else’s', async () => {
    await personOpening('Ann@la.example', T0, T0 + 60_000);
    const cat = await personOpening('cat@la.example', T0, T0 + 120_000);
    const exported = await exportPersonalData(db, 'ann@LA.example', T0 + DAY_MS);
    expect(exported.portfolioLinks).toEqual([
      {
        organisation: 'Loss Adjusters Ltd',
        email: 'Ann@la.example',
        linkGivenAt: '2026-01-10T10:00:00.000Z',
        lastUsedAt: '2026-01-10T10:01:00.000Z',
        revokedAt: null,
        uses: [
          { action: 'link-sent', detail: 'printed by the operator', at: '2026-01-10T10:00:00.000Z' },
          { action: 'opened', detail: 'state=open', at: '2026-01-10T10:01:00.000Z' },
        ],
      },
    ]);

    expect(await erasePersonalData(db, 'ann@la.example', photos())).toEqual({ enquiries: 0, emails: 0, photos: 0, portfolioLinks: 1 });
    expect((await exportPersonalData(db, 'ann@la.example')).portfolioLinks).toEqual([]);
    expect((await db.execute('SELECT id FROM organisation_people')).rows.map((row) => row.id)).toEqual([cat]);
    // Her links and sessions go with her.
    expect((await db.execute('SELECT DISTINCT person_id FROM portfolio_links')).rows.map((row) => row.person_id)).toEqual([cat]);
    expect((await db.execute('SELECT DISTINCT person_id FROM portfolio_sessions')).rows.map((row) => row.person_id)).toEqual([cat]);
    expect((await db.execute('SELECT DISTINCT person_id FROM portfolio_access_log')).rows.map((row) => row.person_id)).toEqual([cat]);
  });

  it('an erasure deletes the address’s e-mailed links, its requests for them and the log of their sending', async () => {
    await db.execute({
      sql: `INSERT INTO portfolio_link_mails (email, mailbox, domain, organisation_id, status, next_attempt_ms, created_ms)
        VALUES ('Ann+x@la.example', 'ann@la.example', 'la.example', ?, 'sent', 1, 1), ('cat@la.example', 'cat@la.example', 'la.example', ?, 'sent', 1, 1)`,
      args: [organisationId, organisationId],
    });
    await newAddressLink(db, organisationId, 'Ann@la.example', T0);
    await newAddressLink(db, organisationId, 'cat@la.example', T0);
    await logPortfolioAccess(db, { organisationId, personId: null, action: 'link-sent', detail: 'ann@la.example', now: T0 });
    await erasePersonalData(db, 'ann@la.example', photos());
    expect((await db.execute('SELECT email FROM portfolio_link_mails')).rows.map((row) => row.email)).toEqual(['cat@la.example']);
    expect((await db.execute('SELECT email FROM portfolio_links')).rows.map((row) => row.email)).toEqual(['cat@la.example']);
    expect(await count('portfolio_access_log')).toBe(0);
  });

  it('retention deletes access log entries past the enquiries’ period, and people unused for it', async () => {
    const later = T0 + 400 * DAY_MS;
    await personOpening('old@la.example', T0, T0 + DAY_MS);
    const recent = await personOpening('new@la.example', T0, later - 30 * DAY_MS);
    const office = await personOpening(null, T0, T0);
    // Revoked recently: kept for now (the revocation is in the log).
    await db.execute({ sql: 'UPDATE organisation_people SET revoked_ms = ? WHERE id = ?', args: [later - DAY_MS, office] });
    // The recent person opened another link lately: that session and link are still of use.
    const lately = await newPortfolioLink(db, recent, later - DAY_MS);
    expect(await openPortfolioLink(db, lately, later - DAY_MS, 'Safari')).toMatchObject({ kind: 'opened' });

    expect(await purgeExpired(db, later, photos())).toEqual({ enquiries: 0, errorLogs: 0, portfolioPeople: 1 });
    expect((await db.execute('SELECT email FROM organisation_people ORDER BY id')).rows.map((row) => row.email)).toEqual([
      'new@la.example',
      null,
    ]);
    // Only the recent person's recent use is left of the log.
    expect((await db.execute('SELECT person_id, action FROM portfolio_access_log')).rows.map((row) => [row.person_id, row.action])).toEqual(
      [[recent, 'opened']],
    );
    expect(await count('organisations')).toBe(1);
    // Sessions unused for 30 days and links as old go, whoever they are of: the recent one stays.
    expect((await db.execute('SELECT person_id, browser FROM portfolio_sessions')).rows.map((row) => [row.person_id, row.browser])).toEqual(
      [[recent, 'Safari']],
    );
    expect(
      (await db.execute('SELECT person_id, created_ms FROM portfolio_links')).rows.map((row) => [row.person_id, row.created_ms]),
    ).toEqual([[recent, later - DAY_MS]]);
  });
});
