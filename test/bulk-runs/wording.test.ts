/**
 * What bulk runs say matches the work they did: the summary counts what was sent, the plan line
 * never offers a saving of nothing, a resume asks about the rows left, the quota's reset is said
 * once, and a resumed dry run previews what it would send with the batch size it would use.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { call } from '../helpers/service-api.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false });
const scratch = () => tempDir('svc-wording-');

/** The first `count` seeded SKUs at their store values, the first `changed` of them one unit up. */
function stockFile(emu: RunningEmulator, count: number, changed: number): { path: string; skus: string[] } {
  const skus = emu.store.allSkus().slice(0, count);
  expect(skus).toHaveLength(count);
  const rows = skus.map((sku, i) => {
    const item = emu.store.inventoryBySku(sku);
    return `${sku},${(item?.quantity ?? 0) + (i < changed ? 1 : 0)},${item?.price}`;
  });
  const path = join(scratch(), 'stock.csv');
  writeFileSync(path, `sku,quantity,price\n${rows.join('\n')}\n`);
  return { path, skus };
}

describe('inventory push --changed-only', () => {
  it('says it pushed the rows it sent, of the file', async () => {
    const emu = await start();
    const { path } = stockFile(emu, 228, 5);
    const result = await runSvc(['inventory', 'push', path, '--changed-only'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Pushed 5 of 228 SKUs in 1 request \([\d.]+ s\): 5 updated, 223 unchanged/);
    expect(result.stderr).not.toMatch(/Pushed 228 SKUs/);
  });

  it('offers no saving when the changed rows take as many requests as the whole file', async () => {
    const emu = await start();
    const { path } = stockFile(emu, 50, 5);
    const result = await runSvc(['inventory', 'push', path, '--changed-only'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('5 of 50 rows differ from the store (45 unchanged)');
    expect(result.stderr).not.toMatch(/instead of 1\b/);
    expect(result.stderr).not.toMatch(/\b0 units/);
  });
});

describe('a push the write quota stopped', () => {
  /** 228 rows in batches of `batchSize`, stopped by a quota of 3 (exit 5). */
  async function stopped(batchSize: number) {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await start({ writeQuota: 3, clock });
    const { path, skus } = stockFile(emu, 228, 228);
    const env = envFor(emu);
    const first = await runSvc(['inventory', 'push', path, '--batch-size', String(batchSize)], { env: env });
    expect(first.code, first.stderr).toBe(5);
    return { emu, clock, env, path, skus, first };
  }

  it('says when the quota resets once', async () => {
    const { first } = await stopped(20);
    expect(first.stderr.match(/resets/g)).toHaveLength(1);
    expect(first.stderr).toMatch(
      /quota is used up; it resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z \(in \d+h \d+m\)/,
    );
  });

  it('a resume asks about the rows left, not the whole file', async () => {
    const { clock, env, path } = await stopped(20);
    clock.advance(24 * 3_600_000);
    const resumed = await runSvc(['inventory', 'push', path, '--resume'], { env: env });
    expect(resumed.code, resumed.stderr).toBe(5);
    expect(resumed.stderr).toMatch(
      /Push 168 of 228 SKUs .*in 9 requests with a LIVE key \(9 units of daily write quota; svc has spent 3 today on this key\)/,
    );
    expect(resumed.stderr).not.toContain('Push 228 SKUs');
  });

  it('--resume --dry-run previews the rows it would send, with the batch size it would use, and says so', async () => {
    const { env, path, skus } = await stopped(10);
    const plan = await runSvc(
      ['inventory', 'push', path, '--resume', '--dry-run', '--batch-size', '50', '--json'],
      { env: env },
    );
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(/--batch-size 50 is not used.*batches of 10/);
    const data = JSON.parse(plan.stdout);
    expect(data).toMatchObject({ requests: 20, confirmed_batches: 3, batch_size: 10 });
    expect(data.first_rows[0].sku).toBe(skus[30]);

    // Without --batch-size there is nothing to say: the journal's size is used, as the resume line says.
    const plain = await runSvc(['inventory', 'push', path, '--resume', '--dry-run', '--json'], { env: env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toContain('--batch-size');
    expect(JSON.parse(plain.stdout).first_rows[0].sku).toBe(skus[30]);
  });
});

describe('--report files are for people', () => {
  it('cells that would start a formula are prefixed with a quote; -o csv to a pipe keeps them exact', async () => {
    const emu = await start();
    const tricky = ['=HYPERLINK("http://x.invalid","click")', '+1-555-0100', '-5', '@SUM(A1)'];
    const made = await call(emu, 'POST', '/products', {
      body: {
        title: 'Formula tee',
        options: [{ name: 'Size', values: ['S', 'M', 'L', 'XL'] }],
        variants: tricky.map((sku, i) => ({
          sku,
          price: '10.00',
          options: { Size: ['S', 'M', 'L', 'XL'][i] },
        })),
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const dir = scratch();
    const path = join(dir, 'stock.csv');
    const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
    writeFileSync(path, `sku,quantity\n${tricky.map((sku, i) => `${quoted(sku)},${i + 1}`).join('\n')}\n`);
    const report = join(dir, 'report.csv');
    const pushed = await runSvc(['inventory', 'push', path, '--report', report], { env: envFor(emu) });
    expect(pushed.code, pushed.stderr).toBe(0);
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.key)).toEqual(tricky.map((sku) => `'${sku}`));

    const exported = await runSvc(['inventory', 'export', '-o', 'csv'], { env: envFor(emu) });
    expect(exported.code, exported.stderr).toBe(0);
    const skus = (parse(exported.stdout, { columns: true }) as Array<Record<string, string>>).map(
      (row) => row.sku,
    );
    for (const sku of tricky) expect(skus).toContain(sku);
  });
});
