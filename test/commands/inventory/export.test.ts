/**
 * Spreadsheets out in any locale: `--decimal-comma` writes `;`-separated cells with `,`
 * decimals, and such an export pushes back with no flag at all.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

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
