/**
 * A dry run promises only what the live run does: for every bulk command, on one store state,
 * `--dry-run --report` then the live run with `--report` name the same items with the same
 * verdicts (would_send → sent, would_skip → skipped, unchanged or unfixed, would_fail → failed,
 * with the same code). (`orders fulfill --file`: test/commands/orders/fulfill.test.ts.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
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

/** Runs `args` with --dry-run --report, then live with --report, and checks the two reports agree. */
async function dryThenLive(emu: RunningEmulator, args: string[], liveCodes = [0, 3]): Promise<string[][]> {
  const dir = scratch();
  const env = envFor(emu);
  const dry = await runSvc([...args, '--dry-run', '--report', join(dir, 'dry.csv')], { env });
  expect(dry.code, dry.stderr).toBe(0);
  const predicted = rows(join(dir, 'dry.csv'));
  expect(predicted.length).toBeGreaterThan(0);
  const live = await runSvc([...args, '--report', join(dir, 'live.csv')], { env });
  expect(liveCodes, live.stderr).toContain(live.code);
  const done = rows(join(dir, 'live.csv'));
  expect(done.map(([line, key, status, code]) => [line, key, VERDICT_OF[status] ?? status, code])).toEqual(
    predicted,
  );
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
    const [a, b] = emu.store.allSkus();
    const same = emu.store.inventoryBySku(b);
    const path = join(scratch(), 'stock.csv');
    writeFileSync(
      path,
      `sku,quantity,price\n${a},777,\n${b},${same?.quantity ?? 0},${same?.price ?? ''}\nNO-SUCH-SKU,1,\n`,
    );
    const verdicts = await dryThenLive(emu, ['inventory', 'push', path]);
    expect(verdicts.map((row) => row[2])).toEqual(['would_send', 'would_skip', 'would_fail']);
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

  it('listings publish --file: one new, one already published', async () => {
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
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const verdicts = await dryThenLive(emu, ['listings', 'publish', '--file', path]);
    expect(verdicts.map((row) => row[2])).toEqual(['would_send', 'would_skip']);
  });

  it('listings retry: the unfixed are held back in both', async () => {
    const emu = await start();
    const code = 'photo_required_for_channel';
    expect(failingWith(emu, code).length).toBeGreaterThan(1);
    const verdicts = await dryThenLive(emu, ['listings', 'retry', '--error-code', code]);
    expect(verdicts.some((row) => row[2] === 'would_skip')).toBe(true);
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
