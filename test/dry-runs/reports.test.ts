/**
 * A dry run promises only what the live run does: for every bulk command, on one store state,
 * `--dry-run --report` then the live run with `--report` name the same items with the same
 * verdicts (would_send → sent, would_skip → skipped, unchanged or unfixed, would_fail → failed,
 * with the same code), and the counts its plan says are the live summary's. (`orders fulfill
 * --file` from a shipping tool's export, every case of it: test/commands/orders/fulfill.test.ts.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false, channelDelayMs: 20, orders: 20, products: 20 });

const scratch = (): string => tempDir('svc-dry-report-');

/** What a dry run calls the live run's final status. */
const VERDICT_OF: Record<string, string> = {
  updated: 'would_send',
  created: 'would_send',
  listed: 'would_send',
  pending: 'would_send',
  simulated: 'would_send',
  unchanged: 'would_skip',
  unfixed: 'would_skip',
  skipped: 'would_skip',
  failed: 'would_fail',
};

/** [line, key, status, code] of every report row, header dropped. */
function rows(path: string): string[][] {
  return (parse(readFileSync(path, 'utf8')) as string[][]).slice(1).map((row) => row.slice(0, 4));
}

/** How many rows have each verdict. */
function tally(verdicts: string[]): Record<string, number> {
  const counts: Record<string, number> = { would_send: 0, would_skip: 0, would_fail: 0 };
  for (const verdict of verdicts) counts[verdict] = (counts[verdict] ?? 0) + 1;
  return counts;
}

/** The live JSON summary's counts, as verdicts. */
function summaryTally(summary: Record<string, number>): Record<string, number> {
  return {
    would_send: summary.updated + summary.simulated,
    would_skip: summary.unchanged + summary.skipped + (summary.unfixed ?? 0),
    would_fail: summary.failed,
  };
}

/** A stock file of three rows: a change, a row the store already holds, a SKU it does not have. */
function changeSameUnknown(emu: RunningEmulator): string {
  const [a, b] = emu.store.allSkus();
  const same = emu.store.inventoryBySku(b);
  const path = join(scratch(), 'stock.csv');
  writeFileSync(
    path,
    `sku,quantity,price\n${a},777,\n${b},${same?.quantity ?? 0},${same?.price ?? ''}\nNO-SUCH-SKU,1,\n`,
  );
  return path;
}

/**
 * Runs `args` with --dry-run --report, then live with --report (both --json, on `env`), and
 * checks the two reports agree row for row, and the counts the dry plan and the live summary
 * say agree with them. A dry run exits 0 whatever it predicts: nothing was sent, so nothing failed.
 */
async function dryThenLive(
  emu: RunningEmulator,
  args: string[],
  liveCodes = [0, 3],
  env: Record<string, string> = envFor(emu),
): Promise<string[][]> {
  const dir = scratch();
  const dry = await runSvc([...args, '--dry-run', '--report', join(dir, 'dry.csv'), '--json'], { env });
  expect(dry.code, dry.stderr).toBe(0);
  const predicted = rows(join(dir, 'dry.csv'));
  expect(predicted.length).toBeGreaterThan(0);
  const counts = tally(predicted.map((row) => row[2]));
  const plan = JSON.parse(dry.stdout) as Record<string, unknown>;
  // A plan (not a list of listings) says its verdicts' counts.
  if (!Array.isArray(plan))
    expect({
      would_send: plan.would_send,
      would_skip: plan.would_skip,
      would_fail: plan.would_fail,
    }).toEqual(counts);
  const live = await runSvc([...args, '--report', join(dir, 'live.csv'), '--json'], { env });
  expect(liveCodes, live.stderr).toContain(live.code);
  const done = rows(join(dir, 'live.csv'));
  expect(done.map(([line, key, status, code]) => [line, key, VERDICT_OF[status] ?? status, code])).toEqual(
    predicted,
  );
  expect(summaryTally(JSON.parse(live.stdout) as Record<string, number>)).toEqual(counts);
  return predicted;
}

function failingWith(emu: RunningEmulator, code: string, channel?: string) {
  return [...emu.store.listings.values()].filter(
    (listing) =>
      listing.status === 'error' &&
      (channel === undefined || listing.channel === channel) &&
      listing.issues.some((issue) => issue.code === code),
  );
}

describe('--dry-run --report says what the live run then does', () => {
  it('inventory push: a change, no change, an unknown SKU', async () => {
    const emu = await start();
    const path = changeSameUnknown(emu);
    const verdicts = await dryThenLive(emu, ['inventory', 'push', path]);
    expect(verdicts.map((row) => row[2])).toEqual(['would_send', 'would_skip', 'would_fail']);
  });

  it('orders fulfill --file: by id and by channel number, and a number no order has', async () => {
    const emu = await start({ orders: 40 });
    const awaiting = [...emu.store.orders.values()].filter((order) => order.status === 'awaiting_shipment');
    expect(awaiting.length).toBeGreaterThan(1);
    const [byId, byNumber] = awaiting;
    const path = join(scratch(), 'shipments.csv');
    writeFileSync(
      path,
      [
        'order_id,tracking_number,carrier',
        `${byId.id},1Z999AA10000000001,UPS`,
        `${byNumber.order_id_on_channel},1Z999AA10000000002,UPS`,
        'NO-SUCH-NUMBER-1,1Z999AA10000000003,UPS',
      ].join('\n'),
    );
    const verdicts = await dryThenLive(emu, ['orders', 'fulfill', '--file', path]);
    expect(verdicts.map((row) => row[2])).toEqual(['would_send', 'would_send', 'would_fail']);
  });

  it('inventory push --changed-only: the unchanged row is left out in both, the unknown SKU fails in both', async () => {
    const emu = await start();
    const path = changeSameUnknown(emu);
    const verdicts = await dryThenLive(emu, ['inventory', 'push', path, '--changed-only']);
    expect(verdicts.map((row) => row[2])).toEqual(['would_send', 'would_skip', 'would_fail']);
  });

  // Rows: two changes, an unchanged row, an unknown SKU, a change; batches of 2. The write quota
  // lets the first run confirm all but one batch (3 batches of every row, 2 of the changed ones).
  it.each([
    { name: 'inventory push --resume', flags: [] as string[], quota: 2 },
    { name: 'inventory push --changed-only --resume', flags: ['--changed-only'], quota: 1 },
  ])(
    'inventory push $flags --resume: batches the journal confirms are skipped in both',
    async ({ flags, quota }) => {
      const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
      const emu = await start({ writeQuota: quota, clock, channelDelayMs: 0 });
      const skus = emu.store.allSkus().slice(0, 5);
      const same = emu.store.inventoryBySku(skus[2]);
      const path = join(scratch(), 'stock.csv');
      const lines = [
        `${skus[0]},701,`,
        `${skus[1]},702,`,
        `${skus[2]},${same?.quantity ?? 0},${same?.price ?? ''}`,
        'NO-SUCH-SKU,1,',
        `${skus[4]},705,`,
      ];
      writeFileSync(path, `sku,quantity,price\n${lines.join('\n')}\n`);
      const env = envFor(emu);
      const args = ['inventory', 'push', path, '--batch-size', '2', ...flags];
      const first = await runSvc(args, { env });
      expect(first.code, first.stderr).toBe(5);
      clock.advance(24 * 3_600_000);
      const verdicts = await dryThenLive(emu, [...args, '--resume'], [0, 3], env);
      // The confirmed batches are skipped; the one left is judged against the store.
      const statuses = verdicts.map((row) => row[2]);
      expect(statuses.filter((status) => status === 'would_skip').length).toBeGreaterThanOrEqual(3);
      expect(statuses.filter((status) => status !== 'would_skip').length).toBeGreaterThan(0);
      if (flags.length > 0) expect(verdicts[3].slice(2)).toEqual(['would_fail', 'sku_not_found']);
    },
  );

  it('products upsert: SKUs of two products fail, a matched product updates, a new one is created', async () => {
    const emu = await start();
    const [first, second, third] = [...emu.store.products.values()];
    const sku = (product: typeof first) => product.variants[0].sku;
    const path = join(scratch(), 'catalog.jsonl');
    const products = [
      {
        title: 'Two owners',
        variants: [
          { sku: sku(first), options: { Size: 'A' } },
          { sku: sku(second), options: { Size: 'B' } },
        ],
      },
      { title: 'Matched', variants: [{ sku: sku(third) }] },
      { title: 'New', variants: [{ sku: 'DRY-NEW-1' }] },
    ];
    writeFileSync(path, products.map((product) => JSON.stringify(product)).join('\n'));
    const verdicts = await dryThenLive(emu, ['products', 'upsert', path]);
    expect(verdicts.map((row) => row.slice(2))).toEqual([
      ['would_fail', 'validation_failed'],
      ['would_send', ''],
      ['would_send', ''],
    ]);
  });

  it('products upsert', async () => {
    const emu = await start();
    const path = join(scratch(), 'catalog.csv');
    writeFileSync(
      path,
      readFileSync(join(import.meta.dirname, '..', 'fixtures', 'products', 'catalog.csv'), 'utf8'),
    );
    const verdicts = await dryThenLive(emu, ['products', 'upsert', path]);
    expect(verdicts.every((row) => row[2] === 'would_send')).toBe(true);
  });

  it('listings publish --file: one new, one already published, one of a product the store lacks', async () => {
    const emu = await start();
    const listed = [...emu.store.listings.values()].find((listing) => listing.status === 'listed');
    expect(listed).toBeDefined();
    const accounts = [...emu.store.accounts.values()].map((account) => account.id);
    const product = [...emu.store.products.values()].find(
      (p) =>
        ![...emu.store.listings.values()].some(
          (listing) => listing.product_id === p.id && listing.channel_account_id === accounts[0],
        ),
    );
    expect(product).toBeDefined();
    const path = join(scratch(), 'publish.jsonl');
    writeFileSync(
      path,
      [
        { product_id: product?.id, channel_account_id: accounts[0] },
        { product_id: listed?.product_id, channel_account_id: listed?.channel_account_id },
        { product_id: 'prod_missing', channel_account_id: accounts[0] },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const verdicts = await dryThenLive(emu, ['listings', 'publish', '--file', path]);
    expect(verdicts.map((row) => [row[2], row[3]])).toEqual([
      ['would_send', ''],
      ['would_skip', 'listing_exists'],
      ['would_fail', 'resource_missing'],
    ]);
  });

  it('listings retry: the unfixed are held back in both', async () => {
    const emu = await start();
    const code = 'photo_required_for_channel';
    expect(failingWith(emu, code).length).toBeGreaterThan(1);
    const verdicts = await dryThenLive(emu, ['listings', 'retry', '--error-code', code]);
    expect(verdicts.some((row) => row[2] === 'would_skip')).toBe(true);
  });

  it('the retry and bulk update dry runs say what svc has spent of the write quota, as the live plan does', async () => {
    const emu = await start();
    const env = envFor(emu);
    const retry = await runSvc(
      ['listings', 'retry', '--error-code', 'photo_required_for_channel', '--dry-run'],
      { env },
    );
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stderr).toMatch(/write quota; svc has (spent|counted) [0-9,]+ /);
    const update = await runSvc(
      [
        'listings',
        'update',
        '--error-code',
        'missing_required_attribute',
        '--channel',
        'ebay',
        '--attribute',
        'condition=New',
        '--dry-run',
      ],
      { env },
    );
    expect(update.code, update.stderr).toBe(0);
    expect(update.stderr).toMatch(/write quota; svc has (spent|counted) [0-9,]+ /);
  });

  it('listings update --error-code', async () => {
    const emu = await start();
    const code = 'missing_required_attribute';
    expect(failingWith(emu, code, 'ebay').length).toBeGreaterThan(0);
    const verdicts = await dryThenLive(emu, [
      'listings',
      'update',
      '--error-code',
      code,
      '--channel',
      'ebay',
      '--attribute',
      'condition=New',
    ]);
    expect(verdicts.some((row) => row[2] === 'would_send')).toBe(true);
  });
});
