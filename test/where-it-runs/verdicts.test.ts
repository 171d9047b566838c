/**
 * What happened is said on stderr whatever stdout is: a dry run's verdict and "Nothing was
 * sent" reach a CI log (stdout to a file) as they reach a terminal; stdout keeps only data,
 * and -q silences the verdict.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());
const scratch = () => tempDir('svc-verdicts-');

function file(name: string, text: string): string {
  const path = join(scratch(), name);
  writeFileSync(path, text);
  return path;
}

/** Every bulk command's dry run (and the one-item dry runs), built from the seeded store. */
function dryRuns(): Record<string, string[]> {
  const skus = emu.store.allSkus().slice(0, 3);
  const stock = file('stock.csv', `sku,quantity\n${skus.map((sku) => `${sku},7`).join('\n')}\n`);
  const awaiting = [...emu.store.orders.values()].find((order) => order.status === 'awaiting_shipment');
  if (!awaiting) throw new Error('no order awaiting shipment in the seed');
  const shipments = file('shipments.csv', `order_id,tracking_number,carrier\n${awaiting.id},1Z999,UPS\n`);
  const product = [...emu.store.products.values()][0];
  const account = [...emu.store.accounts.values()][0];
  const publish = file(
    'publish.jsonl',
    `${JSON.stringify({ product_id: product?.id, channel_account_id: account?.id })}\n`,
  );
  const failing = [...emu.store.listings.values()].find((listing) => listing.status === 'error');
  const code = failing?.issues[0]?.code ?? 'photo_required_for_channel';
  const upsert = join(import.meta.dirname, '..', 'fixtures', 'products', 'catalog.csv');
  return {
    'inventory push': ['inventory', 'push', stock, '--dry-run'],
    'products upsert': ['products', 'upsert', upsert, '--dry-run'],
    'listings publish --file': ['listings', 'publish', '--file', publish, '--dry-run'],
    'listings retry': ['listings', 'retry', '--error-code', code, '--dry-run'],
    'listings update --error-code': [
      'listings',
      'update',
      '--error-code',
      code,
      '--attribute',
      'condition=New',
      '--dry-run',
    ],
    'orders fulfill --file': ['orders', 'fulfill', '--file', shipments, '--dry-run'],
    'orders fulfill ID': [
      'orders',
      'fulfill',
      awaiting.id,
      '--tracking-number',
      '1Z999',
      '--carrier',
      'UPS',
      '--dry-run',
    ],
  };
}

describe('a dry run with stdout to a file', () => {
  it('says its verdict and "Nothing was sent" on stderr, for every bulk command', async () => {
    for (const [name, args] of Object.entries(dryRuns())) {
      const result = await runSvc(args, { env: envFor(emu) });
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      expect(result.stderr, name).toMatch(/Dry run: .*Nothing was sent\./);
      expect(result.stdout, name).not.toContain('Nothing was sent');
    }
    expect(emu.requests().filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it('says it with --json too, the plan alone on stdout', async () => {
    const { 'inventory push': push = [] } = dryRuns();
    const result = await runSvc([...push, '--json'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Dry run: 3 SKUs would be pushed.*Nothing was sent\./);
    expect(JSON.parse(result.stdout)).toMatchObject({ rows: 3 });
  });

  it('prints the plan as field<TAB>value lines on stdout', async () => {
    const { 'inventory push': push = [] } = dryRuns();
    const result = await runSvc(push, { env: envFor(emu) });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.every((line) => line.split('\t').length === 2)).toBe(true);
    expect(lines).toContain('rows\t3');
  });

  it('-q keeps the verdict off stderr', async () => {
    const { 'inventory push': push = [] } = dryRuns();
    const result = await runSvc([...push, '-q'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('Nothing was sent');
  });
});

describe('a bulk run with --json', () => {
  it('says its totals on stderr as well as the JSON summary on stdout', async () => {
    const skus = emu.store.allSkus().slice(0, 2);
    const stock = file('stock.csv', `sku,quantity\n${skus.map((sku) => `${sku},5`).join('\n')}\n`);
    const result = await runSvc(['inventory', 'push', stock, '--json'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Pushed 2 SKUs in 1 request/);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2 });
  });
});
