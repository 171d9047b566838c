import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((emu) => emu.close()));
});

/** An emulator whose bucket (10, draining 20/s) two pushes of 20 requests cannot share blindly. */
async function start(): Promise<RunningEmulator> {
  const emu = await emulator({ products: 40, bucket: 10, drainPerSecond: 20, channelDelayMs: 0 });
  running.push(emu);
  return emu;
}

interface StockRow {
  sku: string;
  quantity: number;
}

/** A CSV of `count` seeded SKUs from `offset` on, each set to a new quantity. */
function stockFile(emu: RunningEmulator, offset: number, count: number): { path: string; rows: StockRow[] } {
  const skus = emu.store.allSkus().slice(offset, offset + count);
  expect(skus.length).toBe(count);
  const rows = skus.map((sku, i) => ({ sku, quantity: 1000 + offset + i }));
  const path = join(mkdtempSync(join(tmpdir(), 'svc-shared-')), 'stock.csv');
  writeFileSync(path, `sku,quantity\n${rows.map((r) => `${r.sku},${r.quantity}`).join('\n')}\n`);
  return { path, rows };
}

function mismatches(emu: RunningEmulator, rows: StockRow[]): StockRow[] {
  return rows.filter((row) => emu.store.inventoryBySku(row.sku)?.quantity !== row.quantity);
}

function envOf(emu: RunningEmulator, configDir: string, extra: Record<string, string> = {}) {
  return { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.live, SVC_CONFIG_DIR: configDir, ...extra };
}

describe('pacing shared by svc processes on one key', () => {
  it('two concurrent pushes on one key: both files land and the service answers no 429', async () => {
    const emu = await start();
    const configDir = freshConfigDir();
    const files = [stockFile(emu, 0, 20), stockFile(emu, 20, 20)];
    const results = await Promise.all(
      files.map((file) =>
        runSvc(['inventory', 'push', file.path, '--batch-size', '1', '--json'], {
          env: envOf(emu, configDir),
        }),
      ),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    for (const file of files) expect(mismatches(emu, file.rows)).toEqual([]);
    expect(emu.requests({ method: 'POST', path: '/inventory/batch' }).length).toBe(40);
    expect(emu.requests({ status: 429 })).toEqual([]);
  });
});
