/**
 * A bulk run stopped by the rate limit (a Retry-After over 120 s) ends as a write-quota stop
 * does: exit 5, totals with not_sent, a complete report and the command that runs it again
 * (docs/guide.md, Exit codes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { RequestFilter, RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false });
const scratch = () => tempDir('svc-rate-stop-');

const envOf = (emu: RunningEmulator) => ({
  SVC_BASE_URL: emu.url,
  SVC_API_KEY: emu.keys.live,
  SVC_CONFIG_DIR: scratch(),
});

/** From the `after`-th write of `filter` on, every one answers 429 with Retry-After: 200. */
function rateLimitAfter(
  emu: RunningEmulator,
  filter: Required<Pick<RequestFilter, 'method' | 'path'>>,
  after: number,
) {
  return {
    when: () => emu.requests(filter).length >= after,
    act: () => emu.faults.inject({ ...filter, kind: 'rate_limited', retryAfter: 200, times: 100_000 }),
  };
}

/** The run's JSON summary (the counts adding up to total), its report rows, and its stderr. */
function stopOf(result: { code: number | null; stdout: string; stderr: string }, report: string) {
  expect(result.code, result.stderr).toBe(5);
  const summary = JSON.parse(result.stdout) as Record<string, number>;
  const counts = ['updated', 'unchanged', 'failed', 'skipped', 'not_sent', 'simulated'];
  expect(counts.reduce((sum, field) => sum + summary[field], 0)).toBe(summary.total);
  expect(summary.not_sent).toBeGreaterThan(0);
  const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
  expect(rows).toHaveLength(summary.total);
  expect(rows.filter((row) => row.status === 'not_sent')).toHaveLength(summary.not_sent);
  const error = JSON.parse(result.stderr.trim().split('\n').at(-1) as string).error;
  expect(error).toMatchObject({ code: 'rate_limited', exit_code: 5 });
  return { summary, rows };
}

describe('a bulk run stopped by a Retry-After of 200 s', () => {
  it('inventory push: totals, a complete report, the resume command; the resume finishes it', async () => {
    const emu = await start();
    const skus = emu.store.allSkus().slice(0, 200);
    const path = join(scratch(), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${i + 7}`).join('\n')}\n`);
    const report = join(scratch(), 'push.csv');
    const env = envOf(emu);
    const batches = { method: 'POST', path: '/inventory/batch' };
    const args = ['inventory', 'push', path, '--batch-size', '10', '--json', '--report', report];
    const result = await runSvc(args, { env, actWhen: rateLimitAfter(emu, batches, 3) });
    const { summary } = stopOf(result, report);
    expect(summary).toMatchObject({ total: 200 });
    expect(result.stderr).toMatch(
      /stopped with \d+ of 20 batches confirmed; `svc inventory push .* --resume`/,
    );
    emu.faults.clear();
    const resumed = await runSvc([...args, '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(skus.every((sku, i) => emu.store.inventoryBySku(sku)?.quantity === i + 7)).toBe(true);
  });

  it('products upsert: totals, a complete report, the command that runs it again', async () => {
    const emu = await start();
    const path = join(scratch(), 'catalog.jsonl');
    const products = Array.from({ length: 250 }, (_, i) => ({
      title: `Paced tee ${i}`,
      variants: [{ sku: `PACED-TEE-${i}`, price: '10.00' }],
    }));
    writeFileSync(path, `${products.map((product) => JSON.stringify(product)).join('\n')}\n`);
    const report = join(scratch(), 'upsert.csv');
    const result = await runSvc(['products', 'upsert', path, '--json', '--report', report], {
      env: envOf(emu),
      actWhen: rateLimitAfter(emu, { method: 'POST', path: '/products/batch' }, 1),
    });
    expect(stopOf(result, report).summary.total).toBe(250);
    expect(result.stderr).toContain(
      `\`svc products upsert ${path} --json --report ${report}\` runs it again`,
    );
  });

  it('listings retry: totals, a complete report, the command that runs it again', async () => {
    const emu = await start({ channelDelayMs: 50 });
    const report = join(scratch(), 'retry.csv');
    const args = ['listings', 'retry', '--error-code', 'photo_required_for_channel', '--channel', 'etsy'];
    const result = await runSvc([...args, '--include-unfixed', '--json', '--report', report], {
      env: envOf(emu),
      actWhen: rateLimitAfter(emu, { method: 'PATCH', path: /^\/listings\/[^/]+$/ }, 0),
    });
    expect(stopOf(result, report).summary.total).toBe(9);
    expect(result.stderr).toMatch(/`svc listings retry .*` runs it again/);
  });

  it('orders fulfill --file: totals, a complete report, the command that runs it again', async () => {
    const emu = await start({ orders: 1000 });
    const ready = [...emu.store.orders.values()].filter((o) => o.status === 'awaiting_shipment').slice(0, 16);
    const path = join(scratch(), 'shipments.csv');
    writeFileSync(
      path,
      `order_id,tracking_number,carrier\n${ready.map((o, i) => `${o.id},1ZRATE${i},UPS`).join('\n')}\n`,
    );
    const report = join(scratch(), 'fulfill.csv');
    const result = await runSvc(['orders', 'fulfill', '--file', path, '--json', '--report', report], {
      env: envOf(emu),
      actWhen: rateLimitAfter(emu, { method: 'POST', path: /^\/orders\/[^/]+\/fulfillment$/ }, 0),
    });
    expect(stopOf(result, report).summary.total).toBe(16);
    expect(result.stderr).toContain(
      `\`svc orders fulfill --file ${path} --json --report ${report}\` runs it again`,
    );
  });
});
