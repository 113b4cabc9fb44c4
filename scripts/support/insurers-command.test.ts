// `npm run insurers`: its arguments, what it prints and its exit codes, against a real database; and
// once end to end as the operator runs it.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { markPortfolioUse, openPortfolioLink, viewerOfSession } from '@/server/portfolio/portfolio-access';
import { runInsurersCommand } from '@/scripts/support/insurers-command';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { proveInstruction } from '@/server/claims/instruction-proof';
import { instructionFields } from '@/tests/support/instruction';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const T0 = Date.parse('2026-11-02T10:00:00Z');
const SITE = 'https://www.example.test';
let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

// The company's published standards as the tests hold them: confirmed, and as shipped (placeholders).
const CONFIRMED = { ...business.forInsurers, placeholder: false };
const run = (...args: string[]) => runInsurersCommand(db, args, { siteUrl: SITE, now: T0, company: CONFIRMED });
const ADD = ['--add', 'Loss Adjusters Ltd', '--domain', 'adjusters.example', '--domain', 'la.example', '--standard', 'contact=2h'];
const COMMANDS = 'Give one of --add, --list, --link, --revoke, --revoke-address, --suspend, --resume, --remove or --log.';
const MINUTE = 60_000;

/** The token of the link a `--link` printed, for SITE_URL. */
const tokenOf = (printed: { out: string[] }) =>
  /^https:\/\/www\.example\.test\/portfolio\/open\/(\S+)$/.exec(printed.out[0] ?? '')?.[1] ?? '';

/** A `--link` printed and opened in `browser` at `at`: the session's cookie value. */
async function signedIn(args: string[], at: number, browser = 'Firefox'): Promise<string> {
  const printed = await runInsurersCommand(db, ['--link', ...args], { siteUrl: SITE, now: at, company: CONFIRMED });
  const opening = await openPortfolioLink(db, tokenOf(printed), at, browser);
  if (opening.kind !== 'opened') throw new Error(`the link did not open: ${opening.kind}`);
  return opening.session;
}

describe('npm run insurers', () => {
  it('--add prints what it registered, with the standards in force; again, what it updated', async () => {
    expect(await run(...ADD)).toEqual({
      code: 0,
      err: [],
      out: [
        'Registered Loss Adjusters Ltd.',
        '  domains: adjusters.example, la.example',
        'Standards in force:',
        '  contact (received to contacted): 2 working hours, 2h',
        '  survey (received to surveyed): 2 working days, 2wd (the company’s published standard)',
        '  report (surveyed to with-insurer): 2 working days, 2wd (the company’s published standard)',
      ],
    });
    expect((await run('--add', 'Loss Adjusters Ltd', '--domain', 'adjusters.example', '--standard', 'report=48ph')).out).toEqual([
      'Updated Loss Adjusters Ltd.',
      '  domains: adjusters.example',
      '  no longer its domains: la.example (the claims they sent stay its own)',
      'Standards in force:',
      '  contact (received to contacted): 4 working hours, 4h (the company’s published standard)',
      '  survey (received to surveyed): 2 working days, 2wd (the company’s published standard)',
      '  report (surveyed to with-insurer): 48 hours, 48ph',
    ]);
  });

  it('while the company’s published standards are placeholders, a measure without its own standard is held to none', async () => {
    const shipped = { ...business.forInsurers, placeholder: true };
    const runShipped = (...args: string[]) => runInsurersCommand(db, args, { siteUrl: SITE, now: T0, company: shipped });
    expect((await runShipped(...ADD)).out.slice(2)).toEqual([
      'Standards in force:',
      '  contact (received to contacted): 2 working hours, 2h',
      '  survey (received to surveyed): none (the company’s published standard is a placeholder until content/business.ts confirms it)',
      '  report (surveyed to with-insurer): none (the company’s published standard is a placeholder until content/business.ts confirms it)',
    ]);
    expect((await runShipped('--list')).out).toEqual([
      'NAME                DOMAINS                        CLAIMS  LINKS  STANDARDS',
      'Loss Adjusters Ltd  adjusters.example, la.example  0       0      contact=2h survey=- report=-',
      '* the company’s published standard (the organisation has none of its own for it)',
      '- none: the company’s published standards are placeholders until content/business.ts confirms them',
    ]);
  });

  it('refuses bad input with a clear message and a non-zero exit', async () => {
    await run(...ADD);
    expect(await run('--add', 'Other plc', '--domain', 'la.example')).toEqual({
      code: 1,
      out: [],
      err: ['la.example is already a domain of Loss Adjusters Ltd: an e-mail domain belongs to one organisation.'],
    });
    expect((await run('--add', 'Other plc', '--domain', 'other.example', '--standard', 'visit=2h')).err[0]).toContain(
      '"visit=2h" is not a standard',
    );
    expect((await run('--link', 'unknown.example')).err).toEqual([
      'No organisation is registered for unknown.example (npm run insurers -- --list shows them).',
    ]);
    expect((await run('--log', 'unknown.example')).code).toBe(1);
    expect((await run('--revoke', 'unknown.example')).code).toBe(1);
    for (const command of ['--suspend', '--resume', '--remove'])
      expect(await run(command, 'unknown.example')).toEqual({
        code: 1,
        out: [],
        err: ['No organisation is registered for unknown.example (npm run insurers -- --list shows them).'],
      });
    // Usage errors: no command, two commands, an option of another command, an unknown option, a bad limit.
    for (const [args, message] of [
      [[], COMMANDS],
      [['--list', '--revoke', 'la.example'], COMMANDS],
      [['--suspend', 'la.example', '--resume', 'la.example'], COMMANDS],
      [['--remove', 'la.example', '--domain', 'la.example'], '--domain goes with --add only.'],
      [['--list', '--domain', 'la.example'], '--domain goes with --add only.'],
      [['--revoke', 'la.example', '--address', 'ann@la.example'], '--address goes with --link only.'],
      [['--log', 'la.example', '--limit', '0'], '--limit must be a whole number from 1 to 1000, not "0".'],
    ] as const) {
      const result = await run(...args);
      expect([result.code, result.err[0]]).toEqual([2, message]);
    }
    expect((await run('--everything')).code).toBe(2);
    expect((await run('--help')).out[0]).toMatch(/^Usage: npm run insurers -- --add "NAME"/);
    expect((await run('--list')).out).toEqual([
      'NAME                DOMAINS                        CLAIMS  LINKS  STANDARDS',
      'Loss Adjusters Ltd  adjusters.example, la.example  0       0      contact=2h survey=2wd* report=2wd*',
      '* the company’s published standard (the organisation has none of its own for it)',
    ]);
  });

  it('--link prints a link for SITE_URL; --revoke and --revoke-address say what they ended; --log who did what', async () => {
    await run(...ADD);
    const printed = await run('--link', 'la.example', '--address', 'ann@la.example');
    expect(printed.out[1]).toBe('For ann@la.example at Loss Adjusters Ltd: it opens once, within 24 hours. Give it to them only.');
    const token = tokenOf(printed);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const opened = await openPortfolioLink(db, token, T0, 'Firefox');
    expect(opened).toMatchObject({ kind: 'opened', viewer: { email: 'ann@la.example' } });
    expect((await openPortfolioLink(db, token, T0, 'Firefox')).kind).toBe('used-or-old');
    const session = opened.kind === 'opened' ? opened.session : '';
    const unopened = tokenOf(await run('--link', 'la.example', '--address', 'ann@la.example'));
    expect(unopened).not.toBe(token);
    expect((await run('--revoke-address', 'ann@la.example')).out).toEqual([
      'The portfolio link of ann@la.example and any page open with it have stopped working (Loss Adjusters Ltd).',
    ]);
    expect(await viewerOfSession(db, session, T0)).toBeNull();
    expect(await openPortfolioLink(db, unopened, T0, 'Firefox')).toEqual({ kind: 'dead' });
    expect((await run('--revoke-address', 'ann@la.example')).code).toBe(1);

    await run('--link', 'adjusters.example');
    expect((await run('--revoke', 'adjusters.example')).out).toEqual([
      'Every portfolio link of Loss Adjusters Ltd and every page open with one has stopped working.',
      'Links ended (1):',
      '  an office link, never used',
      'Give a new one with --link adjusters.example [--address EMAIL].',
    ]);
    expect((await run('--log', 'la.example', '--limit', '2')).out).toEqual([
      'No browser is signed in to the portfolio of Loss Adjusters Ltd.',
      'The portfolio of Loss Adjusters Ltd, newest first:',
      'WHEN                  WHO             WHAT       DETAIL',
      '2026-11-02 10:00 UTC  the operator    revoked    every link (1 person)',
      '2026-11-02 10:00 UTC  an office link  link-sent  printed by the operator',
    ]);
  });

  it('--add without a domain says whose links and open pages it ended there', async () => {
    await run(...ADD);
    const annSession = await signedIn(['la.example', '--address', 'ann@la.example'], T0);
    await markPortfolioUse(db, (await viewerOfSession(db, annSession, T0 + MINUTE))!, T0 + MINUTE);
    await run('--link', 'la.example', '--address', 'bob@la.example');
    const catSession = await signedIn(['adjusters.example', '--address', 'cat@adjusters.example'], T0);
    const updated = await runInsurersCommand(
      db,
      ['--add', 'Loss Adjusters Ltd', '--domain', 'adjusters.example', '--standard', 'contact=2h'],
      {
        siteUrl: SITE,
        now: T0 + 2 * MINUTE,
        company: CONFIRMED,
      },
    );
    expect(updated.out.slice(0, 6)).toEqual([
      'Updated Loss Adjusters Ltd.',
      '  domains: adjusters.example',
      '  no longer its domains: la.example (the claims they sent stay its own)',
      'Links and open pages ended at those domains (2):',
      '  ann@la.example, last used 2026-11-02 10:01 UTC',
      '  bob@la.example, never used',
    ]);
    expect(updated.out[6]).toBe('Standards in force:');
    expect(await viewerOfSession(db, annSession, T0 + 3 * MINUTE)).toBeNull();
    expect(await viewerOfSession(db, catSession, T0 + 3 * MINUTE)).not.toBeNull();
  });

  it('--log lists the browsers signed in first, newest first, then what was done', async () => {
    await run(...ADD);
    await signedIn(['la.example', '--address', 'ann@la.example'], T0, 'Firefox');
    await signedIn(['la.example', '--address', 'ann@la.example'], T0 + 5 * MINUTE, 'Safari');
    await signedIn(['adjusters.example'], T0 + 10 * MINUTE, 'Edge');
    const log = await runInsurersCommand(db, ['--log', 'la.example', '--limit', '1'], {
      siteUrl: SITE,
      now: T0 + 15 * MINUTE,
      company: CONFIRMED,
    });
    expect(log).toEqual({
      code: 0,
      err: [],
      out: [
        'Signed in to the portfolio of Loss Adjusters Ltd (3), newest first:',
        'STARTED               LAST USED             BROWSER  WHO',
        '2026-11-02 10:10 UTC  2026-11-02 10:10 UTC  Edge     an office link',
        '2026-11-02 10:05 UTC  2026-11-02 10:05 UTC  Safari   ann@la.example',
        '2026-11-02 10:00 UTC  2026-11-02 10:00 UTC  Firefox  ann@la.example',
        'The portfolio of Loss Adjusters Ltd, newest first:',
        'WHEN                  WHO             WHAT       DETAIL',
        '2026-11-02 10:10 UTC  an office link  link-sent  printed by the operator',
      ],
    });
    // 30 days after their last use, they are no longer listed.
    expect(
      (await runInsurersCommand(db, ['--log', 'la.example'], { siteUrl: SITE, now: T0 + 31 * 24 * 60 * MINUTE, company: CONFIRMED }))
        .out[0],
    ).toBe('No browser is signed in to the portfolio of Loss Adjusters Ltd.');
    expect((await run('--add', 'Other plc', '--domain', 'other.example')).code).toBe(0);
    expect((await run('--log', 'other.example')).out).toEqual([
      'No browser is signed in to the portfolio of Other plc.',
      'Nothing has been done with the portfolio of Other plc yet.',
    ]);
  });

  it('--suspend ends its links and open pages and stops requests, --resume switches it on, --remove takes it away', async () => {
    await run(...ADD);
    const annSession = await signedIn(['la.example', '--address', 'ann@la.example'], T0);
    await run('--link', 'adjusters.example');

    expect(await run('--suspend', 'LA.example')).toEqual({
      code: 0,
      err: [],
      out: [
        'Loss Adjusters Ltd is suspended: its links and open pages have stopped working, and no link can be asked for.',
        'Ended (2):',
        '  ann@la.example, last used 2026-11-02 10:00 UTC',
        '  an office link, never used',
        'Switch it on again with --resume adjusters.example.',
      ],
    });
    expect(await viewerOfSession(db, annSession, T0)).toBeNull();
    expect((await run('--log', 'la.example', '--limit', '1')).out.slice(-1)[0]).toMatch(/the operator\s+revoked\s+suspended$/);
    expect(await run('--suspend', 'la.example')).toEqual({ code: 1, out: [], err: ['Loss Adjusters Ltd is already suspended.'] });

    expect(await run('--resume', 'la.example')).toEqual({
      code: 0,
      err: [],
      out: ['Loss Adjusters Ltd is on again: its people can ask for a link on /insurers.'],
    });
    const after = await signedIn(['la.example', '--address', 'ann@la.example'], T0);
    expect((await viewerOfSession(db, after, T0))?.email).toBe('ann@la.example');

    const claim = await submitEnquiry(db, instructionFields('desk@la.example', 'loss-adjuster'));
    expect(await proveInstruction(db, claim.id, 'mailbox')).toBe(true);
    expect(await run('--remove', 'la.example')).toEqual({
      code: 0,
      err: [],
      out: [
        'Loss Adjusters Ltd is removed, with its domains (adjusters.example, la.example), people and access log.',
        '  Its 1 claim stays, seen by no organisation.',
      ],
    });
    expect(await viewerOfSession(db, after, T0)).toBeNull();
    expect((await run('--list')).out).toEqual(['No organisation is registered yet: npm run insurers -- --add "NAME" --domain DOMAIN.']);
    expect((await run('--remove', 'la.example')).code).toBe(1);
    expect((await run(...ADD)).out[0]).toBe('Registered Loss Adjusters Ltd.');
    expect((await run('--remove', 'la.example')).out[1]).toBe('  Its 0 claims stay, seen by no organisation.');
  });

  it('--help names every command and the link’s once within 24 hours, 30 days signed in', async () => {
    const help = (await run('--help')).out.join('\n');
    for (const command of ['--suspend DOMAIN', '--resume DOMAIN', '--remove DOMAIN', '--revoke-address EMAIL', '--log DOMAIN'])
      expect(help).toContain(command);
    expect(help).toContain('it opens once, within 24 hours');
    expect(help).toContain('browser signed in 30 days from its last use');
  });

  it('runs as the operator runs it, counting the claims each organisation is proven to have sent', async () => {
    const env = { DATABASE_URL: url, SITE_URL: SITE };
    const added = await runToEnd(spawnTs('scripts/insurers.ts', ADD, env));
    expect(added.code, added.stderr).toBe(0);
    expect(added.lines[0]).toBe('Registered Loss Adjusters Ltd.');
    // One confirmed by its sender; one from an address at the domain that nobody confirmed.
    const confirmed = await submitEnquiry(db, instructionFields('desk@la.example', 'loss-adjuster'));
    expect(await proveInstruction(db, confirmed.id, 'mailbox')).toBe(true);
    await submitEnquiry(db, instructionFields('anyone@la.example', 'loss-adjuster', 'CLM-78'));
    const listed = await runToEnd(spawnTs('scripts/insurers.ts', ['--list'], env));
    expect(listed.lines[1]).toMatch(/^Loss Adjusters Ltd {2}adjusters\.example, la\.example {2}1 {7}0 {6}contact=2h survey=/);
    const refused = await runToEnd(spawnTs('scripts/insurers.ts', ['--revoke', 'nowhere.example'], env));
    expect([refused.code, refused.stderr.trim()]).toEqual([
      1,
      'No organisation is registered for nowhere.example (npm run insurers -- --list shows them).',
    ]);
  }, 90_000);
});
