/**
 * `svc inventory push` at scale: the report of a long push holds every row in input order,
 * written from outcomes streamed as they settle (the run keeps none of them in memory).
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

const start = emulatorPerTest({ rateLimit: false, channelDelayMs: 0 });
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('inventory push --report at 200,000 rows', () => {
  it('holds every row once, in input order, the store’s SKUs updated and the others failed', async () => {
    const emu = await start();
    const known = emu.store.allSkus().slice(0, 50);
    const rows = 200_000;
    const dir = mkdtempSync(join(tmpdir(), 'svc-push-scale-'));
    dirs.push(dir);
    const skuOf = (index: number) => (index < known.length ? known[index] : `NOPE-${index}`);
    const lines = ['sku,quantity'];
    for (let index = 0; index < rows; index++) lines.push(`${skuOf(index)},${1000 + (index % 7)}`);
    const file = join(dir, 'stock.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const report = join(dir, 'report.csv');
    const result = await runSvc(['inventory', 'push', file, '--report', report, '--json'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: rows,
      updated: known.length,
      failed: rows - known.length,
    });
    let index = -1;
    let outOfOrder = 0;
    for await (const text of createInterface({
      input: createReadStream(report),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      if (index === -1) expect(text).toBe('line,key,status,code,message');
      else {
        const [line, key, status] = text.split(',');
        const expected = index < known.length ? 'updated' : 'failed';
        if (line !== String(index + 2) || key !== skuOf(index) || status !== expected) outOfOrder++;
      }
      index++;
    }
    expect(index).toBe(rows);
    expect(outOfOrder).toBe(0);
  }, 180_000);
});
