/**
 * Spreadsheets out in any locale: `--decimal-comma` writes `;`-separated cells with `,`
 * decimals, and such an export pushes back with no flag at all. An export while a push runs in
 * another process lists every SKU once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { bumpQuantities, storeRows, writeRows } from './stock-rows.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false, orders: 10, products: 15 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe('inventory export --excel --decimal-comma', () => {
  it('writes ; and decimal commas, and inventory push reads it back unchanged with no flag', async () => {
    const env = envFor(emu);
    const exported = await runSvc(['inventory', 'export', '--with-titles', '--excel', '--decimal-comma'], {
      env,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const [header, ...rows] = parse(exported.stdout.replace(/^\uFEFF/, ''), { delimiter: ';' }) as string[][];
    expect(header).toEqual(['sku', 'quantity', 'price', 'title', 'options']);
    expect(rows[0][2]).toMatch(/^[0-9]+,[0-9]{2}$/);
    const dir = tempDir('svc-export-');
    const path = join(dir, 'stock.csv');
    writeFileSync(path, exported.stdout);
    const report = join(dir, 'dry.csv');
    const dry = await runSvc(['inventory', 'push', path, '--dry-run', '--report', report], { env });
    expect(dry.code, dry.stderr).toBe(0);
    const verdicts = (parse(readFileSync(report, 'utf8')) as string[][]).slice(1).map((row) => row[2]);
    expect(verdicts.length).toBe(emu.store.allSkus().length);
    // Every row reads back as the store's own quantity and price: nothing would change.
    expect(new Set(verdicts)).toEqual(new Set(['would_skip']));
  });

  it('-o csv --decimal-comma writes order totals with a decimal comma; ids stay as they are', async () => {
    const result = await runSvc(['orders', 'list', '-o', 'csv', '--decimal-comma', '--fields', 'id,total'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('id;total');
    expect(lines[1]).toMatch(/^ord_[A-Za-z0-9]+;[0-9]+,[0-9]{2}$/);
  });
});

/** An emulator of the test's own, rate limits off: the export races a push, not the pacing. */
const start = emulatorPerTest({ rateLimit: false });
const sentBatches = (emu: RunningEmulator) =>
  emu.requests({ method: 'POST', path: '/inventory/batch', status: 200 }).length;

describe('inventory export while a push runs in another process', () => {
  it('lists every SKU exactly once: the products the push moved ahead of its cursor are caught', async () => {
    const emu = await start({ products: 300 });
    // The push changes products the export's first page (the 100 changed last) does not hold.
    const tail = [...emu.store.products.values()]
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id))
      .slice(150)
      .flatMap((product) => product.variants.map((variant) => variant.sku));
    const rows = storeRows(emu, emu.store.allSkus().length)
      .filter((row) => tail.includes(row.sku))
      .slice(0, 150);
    expect(rows).toHaveLength(150);
    bumpQuantities(rows, 0, rows.length);
    const path = writeRows(rows);
    const env = envFor(emu);
    let push: Promise<unknown> | undefined;
    let pushDone: () => void = () => {};
    const landed = new Promise<void>((resolve) => {
      pushDone = resolve;
    });
    // The first page passes; the second waits until the push (started once the first page
    // was answered) has landed: the overlap is certain, not a matter of timing.
    emu.faults.inject({ method: 'GET', path: '/products', kind: 'delay', delayMs: 0 });
    emu.faults.inject({ method: 'GET', path: '/products', kind: 'delay', delayMs: 20_000, until: landed });
    const exported = await runSvc(['inventory', 'export', '-o', 'csv'], {
      env,
      timeoutMs: 40_000,
      actWhen: {
        when: () => emu.requests({ method: 'GET', path: '/products', status: 200 }).length >= 1,
        act: () => {
          push = runSvc(['inventory', 'push', path], { env }).then((result) => {
            pushDone();
            return result;
          });
        },
      },
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(await push).toMatchObject({ code: 0 });
    expect(sentBatches(emu)).toBe(2);
    const skus = exported.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(skus.length).toBe(new Set(skus).size);
    expect(new Set(skus)).toEqual(new Set(emu.store.allSkus()));
    expect(exported.stderr).toMatch(/changed during the export; \d+ closing pass/);
  });
});
