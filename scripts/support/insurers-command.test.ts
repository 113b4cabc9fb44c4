// `npm run insurers`: its arguments, what it prints and its exit codes, against a real database; and
// once end to end as the operator runs it.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { viewerOfLinkToken } from '@/server/portfolio/portfolio-access';
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
    // Usage errors: no command, two commands, an option of another command, an unknown option, a bad limit.
    for (const [args, message] of [
      [[], 'Give one of --add, --list, --link, --revoke, --revoke-address or --log.'],
      [['--list', '--revoke', 'la.example'], 'Give one of --add, --list, --link, --revoke, --revoke-address or --log.'],
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
    expect(printed.out[1]).toBe('For ann@la.example at Loss Adjusters Ltd: it works 30 days from its last use. Give it to them only.');
    const token = /^https:\/\/www\.example\.test\/portfolio\/open\/(\S+)$/.exec(printed.out[0] ?? '')?.[1] ?? '';
    expect((await viewerOfLinkToken(db, token, T0))?.email).toBe('ann@la.example');
    expect((await run('--revoke-address', 'ann@la.example')).out).toEqual([
      'The portfolio link of ann@la.example and any page open with it have stopped working (Loss Adjusters Ltd).',
    ]);
    expect(await viewerOfLinkToken(db, token, T0)).toBeNull();
    expect((await run('--revoke-address', 'ann@la.example')).code).toBe(1);

    await run('--link', 'adjusters.example');
    expect((await run('--revoke', 'adjusters.example')).out).toEqual([
      'Every portfolio link of Loss Adjusters Ltd and every page open with one has stopped working.',
      'Links ended (1):',
      '  an office link, never used',
      'Give a new one with --link adjusters.example [--address EMAIL].',
    ]);
    expect((await run('--log', 'la.example', '--limit', '2')).out).toEqual([
      'The portfolio of Loss Adjusters Ltd, newest first:',
      'WHEN                  WHO             WHAT       DETAIL',
      '2026-11-02 10:00 UTC  the operator    revoked    every link (1 person)',
      '2026-11-02 10:00 UTC  an office link  link-sent  printed by the operator',
    ]);
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
