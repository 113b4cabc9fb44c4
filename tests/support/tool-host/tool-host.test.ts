// The tool host (client.ts, host.ts): one process runs the operator commands one after another in the
// environment it was started with, each answered as the command's own process answers: what it printed
// and its exit code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { closeToolHosts, runTool } from './client';

let env: Record<string, string>;
let cleanup: () => void;
beforeAll(async () => {
  const temp = await tempDatabase();
  env = { DATABASE_URL: temp.url, SITE_URL: 'https://www.example.test' };
  cleanup = temp.cleanup;
});
afterAll(() => {
  closeToolHosts();
  cleanup();
});

describe('the tool host', () => {
  it('runs commands in its environment, one after another, each seeing what the last one did', async () => {
    const added = await runTool('insurers', ['--add', 'Loss Adjusters Ltd', '--domain', 'adjusters.example'], env);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout.split('\n')[0]).toBe('Registered Loss Adjusters Ltd.');
    const [listed, link] = await Promise.all([
      runTool('insurers', ['--list'], env),
      runTool('insurers', ['--link', 'adjusters.example'], env),
    ]);
    expect(listed.stdout).toContain('adjusters.example');
    expect(link).toMatchObject({ code: 0, stderr: '' });
    expect(link.stdout).toMatch(/^https:\/\/www\.example\.test\/portfolio\/open\/\S+\n/);
  });

  it('answers as the command run on its own does: usage errors, --help, a refusal', { timeout: 60_000 }, async () => {
    for (const args of [[], ['--help'], ['--revoke'], ['--revoke', 'HC-NOT-ONE'], ['--staff-link', 'nonsense']]) {
      const inProcess = await runTool('claims', args, env);
      const alone = await runToEnd(spawnTs('scripts/claims.ts', args, env));
      expect(
        { code: inProcess.code, lines: inProcess.stdout.split('\n').filter(Boolean), stderr: inProcess.stderr },
        args.join(' '),
      ).toEqual({
        code: alone.code,
        lines: alone.lines,
        stderr: alone.stderr,
      });
    }
  });

  it('a command that throws is exit 1 with its error on stderr, and the host answers the next one', async () => {
    const broken = { ...env, DATABASE_URL: 'not a database' };
    const failed = await runTool('claims', ['--rotate-links'], broken);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/Error/);
    expect((await runTool('claims', ['--help'], broken)).code).toBe(0);
  });
});
