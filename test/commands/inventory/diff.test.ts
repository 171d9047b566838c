/**
 * `inventory diff`: what a push would change, counted exactly, read with no writes, and the
 * file checked as a push checks it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { storeRows, writeRows } from './stock-rows.js';

/** Rate limits off: these tests are about what is read and sent, not pacing. */
const start = emulatorPerTest({ rateLimit: false });

const scratch = () => tempDir('svc-changes-');
const productPages = (emu: RunningEmulator) => emu.requests({ method: 'GET', path: '/products' });

describe('inventory diff', () => {
  it('3 changed, 1 zeroed and 2 unknown SKUs: exact counts; exit 0, and 6 with --exit-code', async () => {
    const emu = await start();
    const rows = storeRows(emu, 40).map((row) => ({ ...row, quantity: row.quantity + 5 }));
    for (const row of rows) emu.store.setInventory(row.sku, { quantity: row.quantity });
    const file = rows.map((row) => ({ ...row }));
    file[0].quantity += 3; // up
    file[1].quantity -= 1; // down (stays above 0)
    file[2].price = '999.99'; // price
    file[3].quantity = 0; // to 0
    // The same amount written otherwise is no change.
    file[4].price = `${file[4].price}0`;
    file.push({ sku: 'NOT-IN-STORE-1', quantity: 1, price: '1.00' });
    file.push({ sku: 'NOT-IN-STORE-2', quantity: 2, price: '2.00' });
    const path = writeRows(file);
    const env = envFor(emu);

    const plain = await runSvc(['inventory', 'diff', path, '--json'], { env });
    expect(plain.code, plain.stderr).toBe(0);
    const { summary, changes } = JSON.parse(plain.stdout);
    expect(summary).toEqual({
      rows: 42,
      unchanged: 36,
      changed: 4,
      quantity_up: 1,
      quantity_down: 1,
      quantity_to_zero: 1,
      price_changed: 1,
      not_in_store: 2,
      requests: 1,
      write_quota: 1,
      full_push_requests: 1,
    });
    expect(changes).toHaveLength(6);
    expect(changes[3]).toEqual({
      line: 5,
      sku: rows[3].sku,
      status: 'changed',
      quantity: 'to_zero',
      quantity_before: rows[3].quantity,
      quantity_after: 0,
    });
    expect(changes.slice(4).map((c: { sku: string; status: string }) => [c.sku, c.status])).toEqual([
      ['NOT-IN-STORE-1', 'not_in_store'],
      ['NOT-IN-STORE-2', 'not_in_store'],
    ]);

    const gated = await runSvc(['inventory', 'diff', path, '--exit-code', '-o', 'csv'], { env });
    expect(gated.code, gated.stderr).toBe(6);
    expect(gated.stderr).not.toMatch(/error/);
    expect(gated.stdout.trim().split('\n')).toHaveLength(1 + 6);
    expect(gated.stderr).toMatch(
      /36 unchanged, 4 to change \(1 quantity up, 1 down, 1 to 0, 1 price\), 2 not in the store/,
    );

    const same = writeRows(rows, 'same.csv');
    const clean = await runSvc(['inventory', 'diff', same, '--exit-code'], { env });
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).toMatch(/nothing to push/);
    // Reads only: no write reached the store.
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });

  it('--exit-code keeps "differs" apart from "failed": 6 on changes, 6 on SKUs the store lacks, 0 on none, 1 when it could not compare', async () => {
    const emu = await start();
    const rows = storeRows(emu, 10);
    const env = envFor(emu);
    const diff = (path: string, ...more: string[]) =>
      runSvc(['inventory', 'diff', path, '--exit-code', ...more], { env });

    const changed = rows.map((row) => ({ ...row }));
    changed[0].quantity += 1;
    const differs = await diff(writeRows(changed));
    expect(differs.code, differs.stderr).toBe(6);
    expect(differs.stderr).not.toMatch(/error/);

    const unknown = await diff(writeRows([...rows, { sku: 'NOT-IN-STORE', quantity: 1, price: '1.00' }]));
    expect(unknown.code, unknown.stderr).toBe(6);

    const same = await diff(writeRows(rows), '--json');
    expect(same.code, same.stderr).toBe(0);

    emu.faults.inject({ method: 'GET', path: '/products', kind: 'internal_error', times: 5 });
    const failed = await diff(writeRows(changed), '--max-retries', '0', '--json');
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/"exit_code":1/);
  });

  it('a bad file exits 2 before reading the store', async () => {
    const emu = await start();
    const path = join(scratch(), 'bad.csv');
    writeFileSync(path, 'SKU;Stock Count;Price\nA;1;1.00\n');
    const result = await runSvc(['inventory', 'diff', path], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--map quantity='Stock Count'/);
    expect(productPages(emu)).toEqual([]);
  });
});
