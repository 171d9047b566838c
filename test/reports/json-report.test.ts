/**
 * `--report FILE.json` and `FILE.ndjson`: the rows of the CSV report as JSON, values as they are
 * (no spreadsheet formula guard, which belongs to CSV); the CSV report stays as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false, orders: 5, products: 5 });
});
afterAll(() => emu.close());

describe('--report as JSON', () => {
  it('.json is an array and .ndjson a row a line, of the same rows as the CSV, a formula-shaped key kept as is', async () => {
    const dir = tempDir('svc-json-report-');
    const [a] = emu.store.allSkus();
    const stock = join(dir, 'stock.csv');
    writeFileSync(stock, `sku,quantity\n${a},9999\n=SUM(1),4\n`);
    const env = envFor(emu);
    const runs: string[] = [];
    for (const name of ['r.json', 'r.ndjson', 'r.csv']) {
      const result = await runSvc(['inventory', 'push', stock, '--report', join(dir, name)], { env });
      expect(result.code, result.stderr).toBe(3);
      runs.push(readFileSync(join(dir, name), 'utf8'));
    }
    const [json, ndjson, csv] = runs;
    const rows = JSON.parse(json);
    expect(rows).toEqual([
      { line: 2, key: a, status: 'updated', code: null, message: null },
      { line: 3, key: '=SUM(1)', status: 'failed', code: 'sku_not_found', message: expect.any(String) },
    ]);
    // The second run finds the first's quantity in place: unchanged, the rest as before.
    const lines = ndjson
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([{ ...rows[0], status: 'unchanged' }, rows[1]]);
    expect(csv.split('\r\n')[0]).toBe('line,key,status,code,message');
    expect(csv).toContain("'=SUM(1)");
  });
});
