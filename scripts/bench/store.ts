// `npm run bench:store [-- --blocks 6 --per-block 500]`: what the CRM's webhooks add to storing an
// enquiry, in one process with nothing else running in it: the intake's store (storeEnquiry) timed in
// blocks with the webhooks off and on, alternating, then the CRM worker's writing of the events the
// intake left pending, per event. The server answers visitors on one event loop, so a store's time there is
// what an enquiry costs it; bench:contact measures the same through HTTP, with more noise. Each block
// is a fresh run of `perBlock` stores into one temporary database. Not a test: the figures depend on
// the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../server/base/db';
import { storeEnquiry } from '../../server/ledger/enquiry-store';
import { writePendingReceivedEvents } from '../../server/crm/outgoing-events';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '6' },
    'per-block': { type: 'string', default: '500' },
  },
});
const blocks = Math.max(1, Number(values.blocks) || 6);
const perBlock = Math.max(1, Number(values['per-block']) || 500);

const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-store-'));
const db = await openDatabase(`file:${path.join(work, 'bench.db')}`);
let serial = 0;

/** Microseconds per store over `perBlock` accepted enquiries, the CRM told of them or not. */
async function storeBlock(tellCrm: boolean): Promise<number> {
  const started = process.hrtime.bigint();
  for (let index = 0; index < perBlock; index += 1) {
    serial += 1;
    await storeEnquiry(db, {
      name: 'Bench Mark',
      email: `bench${serial}@example.com`,
      subject: `Roof leak ${serial}`,
      message: 'An enquiry from the store benchmark. Water is coming in.',
      clientAddress: '203.0.113.9',
      disposition: 'accepted',
      verification: 'not-configured',
      tellCrm,
    });
  }
  return Number(process.hrtime.bigint() - started) / perBlock / 1000;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const list = (values: readonly number[]) => values.map((value) => value.toFixed(0)).join(' ');

try {
  await storeBlock(false); // warm-up, not reported
  const off: number[] = [];
  const on: number[] = [];
  const pending: number[] = [];
  for (let block = 0; block < blocks; block += 1) {
    // Alternating which goes first, so a machine that drifts favours neither.
    for (const tellCrm of block % 2 === 0 ? [false, true] : [true, false]) (tellCrm ? on : off).push(await storeBlock(tellCrm));
    const started = process.hrtime.bigint();
    const written = await writePendingReceivedEvents(db);
    if (written !== perBlock) throw new Error(`the worker wrote ${written} pending events, not ${perBlock}`);
    pending.push(Number(process.hrtime.bigint() - started) / written / 1000);
  }
  console.log(`stores of ${perBlock} accepted enquiries per block, ${blocks} blocks each, alternating`);
  console.log(`webhooks off   ${median(off).toFixed(0)} µs per store (median; blocks: ${list(off)})`);
  console.log(`webhooks on    ${median(on).toFixed(0)} µs per store (median; blocks: ${list(on)})`);
  console.log(`on against off ${(((median(on) - median(off)) / median(off)) * 100).toFixed(1)}%`);
  console.log(
    `pending events    ${median(pending).toFixed(1)} µs each, written by the CRM's worker (median; blocks: ${pending.map((value) => value.toFixed(1)).join(' ')})`,
  );
} finally {
  db.close();
  rmSync(work, { recursive: true, force: true });
}
