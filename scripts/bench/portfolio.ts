// `npm run bench:portfolio [-- --claims 20000 --mine 2000 --large 10000 --runs 7]`: the server time of
// an instructing organisation's portfolio. Seeds one temporary database with `claims` accepted claims
// over the last year, `mine` of them the organisation's (interleaved with everyone else's), `large` of
// another organisation's (the CSV's 10,000 rows), the rest spread over eight others and homeowners,
// each moved through the stages and some dried out. Then, per run: the page's data (every row of the
// organisation and its 30/90-day summary), and the CSV's iteration (time to its first batch of rows,
// and to the last). Prints medians over `runs` after one warm-up, wall time and, for the page, this
// process's CPU time (on a machine shared with other work the wall time waits for the cores). Not a
// test: the figures depend on the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Client, InStatement, InValue } from '@libsql/client';
import { CLAIM_STAGE_NAMES } from '../../lib/claim-stages';
import { openDatabase } from '../../server/base/db';
import { portfolioRows, portfolioSummary } from '../../server/portfolio/portfolio-rows';

const { values } = parseArgs({
  options: {
    claims: { type: 'string', default: '20000' },
    mine: { type: 'string', default: '2000' },
    large: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '7' },
  },
});
const claims = Math.max(1, Number(values.claims) || 20_000);
const mine = Math.min(claims, Math.max(1, Number(values.mine) || 2_000));
const large = Math.min(claims - mine, Math.max(0, Number(values.large) || 0));
const runs = Math.max(1, Number(values.runs) || 7);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-27T12:00:00.000Z');
// Every stage a claim goes through in order, from first contact to completed (not on hold).
const PATH = CLAIM_STAGE_NAMES.filter((stage) => stage !== 'received' && stage !== 'on-hold');
const iso = (ms: number) => new Date(ms).toISOString();

/** Whether index `index` of `count` is one of `wanted` spread evenly over them. */
const spread = (index: number, count: number, wanted: number) =>
  Math.floor((index * wanted) / count) !== Math.floor(((index + 1) * wanted) / count);

/** Each claim's organisation: `mine` spread evenly, `large` spread evenly over the rest, then eight others and homeowners. */
const owners = (() => {
  const list: (number | null)[] = [];
  let other = 0;
  for (let index = 0; index < claims; index += 1) {
    if (spread(index, claims, mine)) list.push(1);
    else {
      list.push(spread(other, claims - mine, large) ? 2 : other % 9 === 0 ? null : 3 + (other % 8));
      other += 1;
    }
  }
  return list;
})();

async function seed(db: Client) {
  const organisations: InStatement[] = Array.from({ length: 10 }, (_, index) => ({
    sql: `INSERT INTO organisations (name, standards, created_ms, updated_ms) VALUES (?, ?, 0, 0)`,
    args: [`Organisation ${index + 1}`, '{"contact":{"workingHours":2},"survey":{"workingDays":3},"report":{"plainHours":48}}'],
  }));
  await db.batch(organisations, 'write');
  const chunk = 500;
  const owned = { mine: 0, large: 0 };
  for (let start = 0; start < claims; start += chunk) {
    const rows: Record<'enquiries' | 'changes' | 'visits' | 'readings' | 'machines', InValue[][]> = {
      enquiries: [],
      changes: [],
      visits: [],
      readings: [],
      machines: [],
    };
    for (let index = start; index < Math.min(claims, start + chunk); index += 1) {
      const id = index + 1;
      const owner = owners[index]!;
      if (owner === 1) owned.mine += 1;
      if (owner === 2) owned.large += 1;
      // Oldest first over the last 365 days, a few hours apart.
      const received = NOW - 365 * DAY + Math.floor((index * 365 * DAY) / claims);
      rows.enquiries.push([id, iso(received), received, `office${id}@example.com`, `hash${id}`, `CLM-${id}`, owner]);
      // How far along: the older the claim, the further; each stage some working hours or days after the last.
      const age = (NOW - received) / DAY;
      const reached = Math.min(PATH.length, Math.floor(age / 12) + (id % 3));
      let at = received + (1 + (id % 5)) * HOUR;
      for (let step = 0; step < reached && at < NOW; step += 1) {
        rows.changes.push([id, PATH[step]!, iso(at), at]);
        if (PATH[step] === 'drying') {
          rows.visits.push([id, id, iso(at), at, `visit-${id}`, iso(at)]);
          rows.readings.push([id]);
          rows.machines.push([id, iso(at), at + 7 * DAY < NOW ? iso(at + 7 * DAY) : null, at]);
        }
        at += (4 + (id % 40)) * HOUR;
      }
    }
    const insert = (head: string, row: string, list: InValue[][]): InStatement[] =>
      list.length === 0 ? [] : [{ sql: `${head} VALUES ${list.map(() => row).join(', ')}`, args: list.flat() }];
    await db.batch(
      [
        ...insert(
          `INSERT INTO enquiries (id, received_at, received_ms, name, email, subject, message, client_address, content_hash,
            disposition, verification, claim_role, claim_reference, postcode, damage_type, organisation_id)`,
          `(?, ?, ?, 'Bench Mark', ?, 'Instruction', 'Water through the ceiling.', '203.0.113.9', ?, 'accepted', 'not-configured',
            'loss-adjuster', ?, 'G67 1AA', 'water-damage', ?)`,
          rows.enquiries,
        ),
        ...insert(
          `INSERT INTO claim_stage_changes (enquiry_id, stage, tell_customer, source, changed_at, changed_ms)`,
          `(?, ?, 0, 'staff', ?, ?)`,
          rows.changes,
        ),
        ...insert(
          `INSERT INTO drying_visits (id, enquiry_id, visit_at, visit_ms, source, event_id, recorded_at)`,
          `(?, ?, ?, ?, 'crm', ?, ?)`,
          rows.visits,
        ),
        ...insert(
          `INSERT INTO drying_readings (visit_id, location, material, scale, value, goal)`,
          `(?, 'Kitchen wall', 'plaster', 'wme', 28, 12)`,
          rows.readings,
        ),
        ...insert(
          `INSERT INTO drying_equipment (enquiry_id, machine_key, kind, model, watts, count, on_at, off_at, last_visit_ms)`,
          `(?, 'bench', 'dehumidifier', 'Ebac 2650e', 700, 1, ?, ?, ?)`,
          rows.machines,
        ),
      ],
      'write',
    );
  }
  await db.execute('ANALYZE');
  return owned;
}

const median = (list: readonly number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
/** This process's CPU time since `start` (user and system), ms: what the work costs when other processes share the cores. */
const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const show = (list: readonly number[]) =>
  `${median(list).toFixed(1)} ms (median; runs: ${list.map((value) => value.toFixed(1)).join(' ')})`;

/** The page's data: every row of the organisation and its summary. */
async function pageData(db: Client, organisationId: number) {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let rows = 0;
  for await (const batch of portfolioRows(db, organisationId, { stage: null, state: 'all' }, NOW)) rows += batch.length;
  await portfolioSummary(db, organisationId, NOW);
  return { ms: ms(started), cpu: cpuMs(cpu), rows };
}

/** The CSV's iteration: time to its first batch, and to its last; the largest batch held at once. */
async function csvIteration(db: Client, organisationId: number) {
  const started = process.hrtime.bigint();
  let first = 0;
  let rows = 0;
  let largest = 0;
  for await (const batch of portfolioRows(db, organisationId, { stage: null, state: 'all' }, NOW)) {
    if (rows === 0) first = ms(started);
    rows += batch.length;
    largest = Math.max(largest, batch.length);
  }
  return { first, all: ms(started), rows, largest };
}

const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-portfolio-'));
const db = await openDatabase(`file:${path.join(work, 'bench.db')}`);
try {
  const seeding = process.hrtime.bigint();
  const owned = await seed(db);
  console.log(
    `seeded ${claims} claims in ${(ms(seeding) / 1000).toFixed(1)} s: ${owned.mine} of the organisation, ${owned.large} of a large one, the rest of eight others and homeowners`,
  );
  const plan = await db.execute(
    `EXPLAIN QUERY PLAN SELECT e.id FROM enquiries e WHERE e.organisation_id = 1 AND e.disposition = 'accepted' ORDER BY e.received_ms DESC, e.id DESC LIMIT 500`,
  );
  console.log(`batch query plan: ${plan.rows.map((row) => String(row.detail)).join('; ')}`);
  await pageData(db, 1); // warm-up, not reported
  const page: number[] = [];
  const pageCpu: number[] = [];
  const first: number[] = [];
  const all: number[] = [];
  const largeFirst: number[] = [];
  const largeAll: number[] = [];
  let counts = { page: 0, csv: 0, large: 0, largest: 0 };
  for (let run = 0; run < runs; run += 1) {
    const data = await pageData(db, 1);
    page.push(data.ms);
    pageCpu.push(data.cpu);
    const csv = await csvIteration(db, 1);
    first.push(csv.first);
    all.push(csv.all);
    const big = large > 0 ? await csvIteration(db, 2) : null;
    if (big) {
      largeFirst.push(big.first);
      largeAll.push(big.all);
    }
    counts = { page: data.rows, csv: csv.rows, large: big?.rows ?? 0, largest: Math.max(csv.largest, big?.largest ?? 0) };
  }
  console.log(`page data (${counts.page} rows + 30/90-day summary)   ${show(page)}`);
  console.log(`  its CPU time                                ${show(pageCpu)}`);
  console.log(`CSV first batch (${counts.csv} rows)                   ${show(first)}`);
  console.log(`CSV all rows (${counts.csv} rows)                      ${show(all)}`);
  if (large > 0) {
    console.log(`CSV first batch (${counts.large} rows)                ${show(largeFirst)}`);
    console.log(`CSV all rows (${counts.large} rows)                   ${show(largeAll)}`);
  }
  console.log(`largest batch held at once: ${counts.largest} rows`);
} finally {
  db.close();
  rmSync(work, { recursive: true, force: true });
}
