import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server's folders follow an enquiry and a claim through the pipeline, in the order the README's
// map tells them. A folder may import its own files and any folder on an earlier step, never one on its
// own step or later: so the imports run one way and the folders have no cycles
// (docs/decisions/0044-the-server-laid-out-as-the-pipeline.md, docs/decisions/0050-an-empty-server-root.md).
const STEPS: readonly (readonly string[])[] = [
  // Shared plumbing: configuration, the database and its migrations, HTTP helpers, private files.
  ['base'],
  // What server.mjs runs before Next: path rules, limits, headers, the upload gate, the client address.
  ['edge'],
  // The error log.
  ['error-log'],
  // What the site records: enquiries, photos, and the outbox the delivery workers read.
  ['ledger'],
  // A claim after it is received: its stages, links, pages and drying record.
  ['claims'],
  // The instructing organisations: their people, links and portfolios.
  ['portfolio'],
  // What comes in from visitors: the enquiry form, photos, photos added later.
  ['intake'],
  // The worker runner and the e-mails.
  ['delivery'],
  // The CRM: its events in and out, its webhooks, its gallery list.
  ['crm'],
  // What the owner and the gallery read, and what keeps the records in shape.
  ['gallery', 'reports', 'upkeep'],
];
/** The one place that starts the background work: it may import everything, and nothing imports it. */
const STARTER = 'background.ts';
/** The outbox writer, which the ledger and the claims call, knows the database and nothing else. */
const OUTBOX_WRITER = 'ledger/outbox.ts';
/**
 * The bodies of the events the CRM is sent are the CRM's, but they are written in the same batch as
 * what they tell of (an enquiry stored, a stage changed, a drying visit recorded), by every step from
 * the ledger on. So this one file of crm/ imports only the database, and any step may import it.
 */
const CRM_EVENT_BODIES = 'crm/outgoing-events.ts';
const DATABASE_ONLY = ['base/db.ts', 'base/db-schema.ts'];

type Import = { from: string; to: string };

const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

function stepOf(file: string): number {
  const folder = folderOf(file);
  const step = STEPS.findIndex((folders) => folders.includes(folder));
  if (step === -1) throw new Error(`server/${file}: its folder "${folder}" has no step in the layout`);
  return step;
}

/** Every import that breaks the layout, as a line naming both files and the rule. */
export function layoutViolations(imports: readonly Import[]): string[] {
  const violations: string[] = [];
  for (const { from, to } of imports) {
    if (to === STARTER) {
      violations.push(`server/${from} imports server/${to}: only instrumentation.ts and routes start or read the background work`);
      continue;
    }
    if (from === STARTER) continue;
    if ((from === OUTBOX_WRITER || from === CRM_EVENT_BODIES) && !DATABASE_ONLY.includes(to) && to !== CRM_EVENT_BODIES) {
      violations.push(
        `server/${from} imports server/${to}: ${from === OUTBOX_WRITER ? 'the outbox writer imports' : "the CRM's event bodies import"} only the database`,
      );
      continue;
    }
    if (to === CRM_EVENT_BODIES) continue;
    const [fromFolder, toFolder] = [folderOf(from), folderOf(to)];
    if (fromFolder === toFolder) continue;
    if (stepOf(to) >= stepOf(from)) violations.push(`server/${from} imports server/${to}: ${fromFolder}/ may not import ${toFolder}/`);
  }
  return violations;
}

const SERVER = path.resolve(__dirname);
const SOURCE = /\.(?:ts|mjs)$/;
const TEST = /\.test\.(?:ts|mjs)$/;
const SPECIFIER = /\b(?:from|import)(?:\s*\(\s*|\s*)['"]([^'"]+)['"]/g;

function serverSources(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(full);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [path.relative(SERVER, full)] : [];
  });
}

/** The server file a specifier names, as a path under server/, or null for anything outside it. */
function resolveInServer(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  let target: string;
  if (specifier.startsWith('@/server/')) target = specifier.slice('@/server/'.length);
  else if (specifier.startsWith('.')) target = path.relative(SERVER, path.resolve(SERVER, path.dirname(from), specifier));
  else return null;
  if (target.startsWith('..')) return null;
  for (const candidate of [target, `${target}.ts`, `${target}/index.ts`]) if (files.has(candidate)) return candidate;
  throw new Error(`server/${from} imports "${specifier}", which names no file of server/`);
}

function serverImports(): Import[] {
  const files = serverSources();
  const known = new Set(files);
  return files.flatMap((from) =>
    [...readFileSync(path.join(SERVER, from), 'utf8').matchAll(SPECIFIER)]
      .map(([, specifier = '']) => resolveInServer(from, specifier, known))
      .filter((to): to is string => to !== null && to !== from)
      .map((to) => ({ from, to })),
  );
}

describe('the server laid out as the pipeline', () => {
  it('finds the imports it judges: the starter reaches every step, the intake reaches the ledger', () => {
    const imports = serverImports();
    expect(imports.length).toBeGreaterThan(150);
    expect(imports).toContainEqual({ from: 'background.ts', to: 'delivery/outbox-worker.ts' });
    expect(imports).toContainEqual({ from: 'intake/receive-enquiry.ts', to: 'ledger/enquiry-store.ts' });
    expect(imports).toContainEqual({ from: 'edge/upload-gate.mjs', to: 'edge/upload-slots.mjs' });
  });

  it('has every import of server/ run down the steps, the outbox writer on the database alone', () => {
    expect(layoutViolations(serverImports())).toEqual([]);
  });

  it('names each kind of break', () => {
    expect(
      layoutViolations([
        { from: 'claims/claim-status.ts', to: 'delivery/mailer.ts' },
        { from: 'ledger/enquiry-store.ts', to: 'claims/claim-links.ts' },
        { from: 'reports/health.ts', to: 'upkeep/backup.ts' },
        { from: 'ledger/outbox.ts', to: 'ledger/photo-store.ts' },
        { from: 'base/db.ts', to: 'ledger/enquiry-store.ts' },
        { from: 'base/db.ts', to: 'edge/client-address.mjs' },
        { from: 'crm/webhooks.ts', to: 'background.ts' },
        { from: 'crm/outgoing-events.ts', to: 'ledger/enquiry-store.ts' },
        { from: 'crm/webhooks.ts', to: 'delivery/lease-queue.ts' },
        { from: 'ledger/outbox.ts', to: 'base/db.ts' },
        { from: 'ledger/enquiry-store.ts', to: 'crm/outgoing-events.ts' },
        { from: 'background.ts', to: 'upkeep/backup.ts' },
      ]),
    ).toEqual([
      'server/claims/claim-status.ts imports server/delivery/mailer.ts: claims/ may not import delivery/',
      'server/ledger/enquiry-store.ts imports server/claims/claim-links.ts: ledger/ may not import claims/',
      'server/reports/health.ts imports server/upkeep/backup.ts: reports/ may not import upkeep/',
      'server/ledger/outbox.ts imports server/ledger/photo-store.ts: the outbox writer imports only the database',
      'server/base/db.ts imports server/ledger/enquiry-store.ts: base/ may not import ledger/',
      'server/base/db.ts imports server/edge/client-address.mjs: base/ may not import edge/',
      'server/crm/webhooks.ts imports server/background.ts: only instrumentation.ts and routes start or read the background work',
      "server/crm/outgoing-events.ts imports server/ledger/enquiry-store.ts: the CRM's event bodies import only the database",
    ]);
  });
});
