import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server's folders follow an enquiry and a claim through the pipeline. A folder may import its own
// files and any folder on a lower step, never one on its own step or above: so the imports run one way
// and the folders have no cycles (docs/decisions/0044-the-server-laid-out-as-the-pipeline.md).
const STEPS: readonly (readonly string[])[] = [
  // The foundation: configuration, the database, HTTP helpers, the error log, the gallery.
  ['.', 'migrations', 'error-log', 'gallery'],
  // What the site records: enquiries, photos, and the outbox the delivery lanes read.
  ['ledger'],
  // A claim after it is received: its stages, links, pages and drying record.
  ['claims'],
  // What comes in from visitors: the enquiry form, photos, photos added later.
  ['intake'],
  // The lease queue and the e-mails.
  ['delivery'],
  // The CRM: its events in and its webhooks out.
  ['crm'],
  // What the owner reads, and what keeps the records in shape.
  ['reports', 'upkeep'],
];
/** The one place that starts the background work: it may import everything, and nothing imports it. */
const STARTER = 'background.ts';
/** The outbox writer, which the ledger and the claims call, knows the database and nothing else. */
const OUTBOX_WRITER = 'ledger/outbox.ts';
const OUTBOX_WRITER_MAY_IMPORT = ['db.ts', 'db-schema.ts'];

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
    if (from === OUTBOX_WRITER && !OUTBOX_WRITER_MAY_IMPORT.includes(to)) {
      violations.push(`server/${from} imports server/${to}: the outbox writer imports only the database`);
      continue;
    }
    const [fromFolder, toFolder] = [folderOf(from), folderOf(to)];
    if (fromFolder === toFolder || stepOf(from) === 0) {
      if (stepOf(from) === 0 && stepOf(to) !== 0)
        violations.push(`server/${from} imports server/${to}: the foundation imports no folder of the pipeline`);
      continue;
    }
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
    expect(imports).toContainEqual({ from: 'upload-door.mjs', to: 'upload-slots.mjs' });
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
        { from: 'db.ts', to: 'ledger/enquiry-store.ts' },
        { from: 'crm/webhooks.ts', to: 'background.ts' },
        { from: 'crm/webhooks.ts', to: 'delivery/lease-queue.ts' },
        { from: 'ledger/outbox.ts', to: 'db.ts' },
      ]),
    ).toEqual([
      'server/claims/claim-status.ts imports server/delivery/mailer.ts: claims/ may not import delivery/',
      'server/ledger/enquiry-store.ts imports server/claims/claim-links.ts: ledger/ may not import claims/',
      'server/reports/health.ts imports server/upkeep/backup.ts: reports/ may not import upkeep/',
      'server/ledger/outbox.ts imports server/ledger/photo-store.ts: the outbox writer imports only the database',
      'server/db.ts imports server/ledger/enquiry-store.ts: the foundation imports no folder of the pipeline',
      'server/crm/webhooks.ts imports server/background.ts: only instrumentation.ts and routes start or read the background work',
    ]);
  });
});
