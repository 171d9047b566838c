/**
 * `inventory push` itself: a push through faults, pacing and the write quota, --wait on the
 * channels, a report of a long push that holds every row in input order, and the question asked
 * at a terminal. Stopping and resuming: push.resume.test.ts; the files operators have and files
 * that are not what they seem: push.files.test.ts; --changed-only, --backup and the zeroing
 * guard: push.changes.test.ts.
 */
import { createReadStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { KEYS, plainText, runAtKeyboard } from '../../helpers/keyboard.js';
import { get } from '../../helpers/service-api.js';
import { freshConfigDir, runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * No channel delay: the long push is about the report, not the wait for channels. 2,000 batches
 * settle out of order as a longer run's do; bench/scale.mjs checks the report at a million rows.
 */
const startQuiet = emulatorPerTest({ rateLimit: false, channelDelayMs: 0 });

describe('inventory push --report at 200,000 rows', () => {
  it('holds every row once, in input order, the store’s SKUs updated and the others failed', async () => {
    const emu = await startQuiet();
    const known = emu.store.allSkus().slice(0, 50);
    const rows = 200_000;
    const dir = tempDir('svc-push-scale-');
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

/** Rate limits on, as a live store has them: the pushes below retry through faults and pacing. */
const startPaced = emulatorPerTest();

interface StockRow {
  sku: string;
  quantity: number;
  price: string;
}

/** A CSV setting every one of `count` seeded SKUs to new values, and the rows it holds. */
function stockFile(emu: RunningEmulator, count: number, bump = 7): { path: string; rows: StockRow[] } {
  const skus = emu.store.allSkus().slice(0, count);
  expect(skus.length).toBe(count);
  const rows = skus.map((sku, i) => ({
    sku,
    quantity: (i * 13 + bump) % 500,
    price: `${(i % 90) + 1}.${bump % 10}5`,
  }));
  const path = join(tempDir('svc-push-'), 'stock.csv');
  writeFileSync(
    path,
    `sku,quantity,price\n${rows.map((r) => `${r.sku},${r.quantity},${r.price}`).join('\n')}\n`,
  );
  return { path, rows };
}

function expectStoreMatches(emu: RunningEmulator, rows: StockRow[]): void {
  const mismatched = rows.filter((row) => {
    const item = emu.store.inventoryBySku(row.sku);
    return item?.quantity !== row.quantity || item?.price !== row.price;
  });
  expect(mismatched).toEqual([]);
}

const batchRequests = (emu: RunningEmulator) => emu.requests({ method: 'POST', path: '/inventory/batch' });

describe('inventory push', () => {
  it('sets exactly what the file says under injected faults, reusing each batch key across retries', async () => {
    const emu = await startPaced({ products: 80 });
    const { path, rows } = stockFile(emu, 250);
    for (const kind of [
      'internal_error',
      'service_unavailable',
      'rate_limited',
      'drop_before',
      'drop_after',
    ] as const) {
      emu.faults.inject({ method: 'POST', path: '/inventory/batch', kind, retryAfter: 1 });
    }
    const result = await runSvc(['inventory', 'push', path, '--json'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expectStoreMatches(emu, rows);
    const requests = batchRequests(emu);
    expect(requests.length).toBe(3 + 5);
    const keys = new Set(requests.map((r) => r.idempotencyKey));
    expect(keys.size).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 250, failed: 0 });
  });

  it('a bad file sends zero requests and lists each bad line (exit 2)', async () => {
    const emu = await startPaced();
    const path = join(tempDir('svc-bad-'), 'bad.csv');
    writeFileSync(path, 'sku,quantity,price\nA,1,1.00\nB,-3,1.00\nA,2,\nC,,\n');
    const before = emu.requests().length;
    const result = await runSvc(['inventory', 'push', path], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/line 3: quantity "-3"/);
    expect(result.stderr).toMatch(/line 4: duplicate SKU A \(first on line 2\)/);
    expect(result.stderr).toMatch(/line 5: neither quantity nor price/);
    expect(emu.requests().length).toBe(before);
  });

  it('export then push of the export changes nothing', async () => {
    const emu = await startPaced();
    const exported = await runSvc(['inventory', 'export'], { env: envFor(emu) });
    expect(exported.code).toBe(0);
    expect(exported.stdout.split('\n')[0]).toBe('sku,quantity,price');
    const path = join(tempDir('svc-exp-'), 'export.csv');
    writeFileSync(path, exported.stdout);
    const result = await runSvc(['inventory', 'push', path, '--json'], { env: envFor(emu) });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.total).toBe(emu.store.allSkus().length);
    expect(summary.unchanged).toBe(summary.total);
  });

  it('reports unknown SKUs per item, in the report file, and exits 3', async () => {
    const emu = await startPaced();
    const sku = emu.store.allSkus()[0];
    const dir = tempDir('svc-rep-');
    writeFileSync(join(dir, 'in.csv'), `sku;quantity\n${sku};5\nNOT-A-SKU;1\n`);
    const result = await runSvc(
      ['inventory', 'push', join(dir, 'in.csv'), '--report', join(dir, 'out.csv')],
      {
        env: envFor(emu),
      },
    );
    expect(result.code).toBe(3);
    const report = readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\r\n');
    expect(report[0]).toBe('line,key,status,code,message');
    expect(report).toContainEqual(expect.stringMatching(/^3,NOT-A-SKU,failed,sku_not_found,/));
    expect(report).toContain(`2,${sku},updated,,`);
  });

  it('with a test key the results are simulated and nothing changes', async () => {
    const emu = await startPaced();
    const { path, rows } = stockFile(emu, 10);
    const before = rows.map((r) => emu.store.inventoryBySku(r.sku));
    const result = await runSvc(['inventory', 'push', path], { env: envFor(emu, 'test') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/simulated/);
    expect(rows.map((r) => emu.store.inventoryBySku(r.sku))).toEqual(before);
  });

  it('--dry-run needs no network and sends nothing', async () => {
    const emu = await startPaced();
    const { path } = stockFile(emu, 30);
    const result = await runSvc(['inventory', 'push', path, '--dry-run', '--batch-size', '10'], {
      env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: emu.keys.live },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/3/);
  });

  it('stops on the daily write quota with exit 5, then --resume sends only unconfirmed batches', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await startPaced({ writeQuota: 6, rateLimit: false, clock });
    const { path, rows } = stockFile(emu, 100);
    const env = { ...envFor(emu), SVC_CONFIG_DIR: freshConfigDir() };
    const first = await runSvc(['inventory', 'push', path, '--batch-size', '10'], { env });
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(/write_quota_exceeded|quota/);
    expect(first.stderr).toMatch(/--resume/);
    const sentFirst = batchRequests(emu).filter((r) => r.status === 200).length;
    expect(sentFirst).toBe(6);
    clock.advance(24 * 3_600_000);
    const second = await runSvc(['inventory', 'push', path, '--batch-size', '10', '--resume'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(batchRequests(emu).filter((r) => r.status === 200).length).toBe(10);
    expectStoreMatches(emu, rows);
    expect(readdirSync(join(env.SVC_CONFIG_DIR, 'journals'))).toEqual([]);
  });
});

describe('inventory push --wait', () => {
  it('follows the operations to the channels and succeeds when they all took the change', async () => {
    const emu = await startPaced({ channelDelayMs: 200 });
    const { path } = stockFile(emu, 150);
    const result = await runSvc(['inventory', 'push', path, '--wait', '--timeout', '20'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/operations succeeded/);
    expect(emu.requests({ method: 'GET', path: /^\/operations/ }).length).toBeGreaterThan(0);
  });

  it('names channel failures per SKU (exit 3)', async () => {
    const emu = await startPaced({ channelDelayMs: 100, channelFailureShare: 1 });
    const { path } = stockFile(emu, 150);
    const result = await runSvc(['inventory', 'push', path, '--wait', '--timeout', '20'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/channels refused \d+ updates? of \d+ SKUs?/);
    expect(result.stderr).toMatch(/channel_error/);
  });

  it('--report holds one row per SKU, a refused one failed with the channel code, and --json lists every refusal', async () => {
    const emu = await startPaced({ channelDelayMs: 100, channelFailureShare: 1 });
    const { path, rows: stock } = stockFile(emu, 150);
    const pushed = new Set(stock.map((row) => row.sku));
    const dir = tempDir('svc-wait-report-');
    const report = join(dir, 'report.csv');
    const since = new Date(Date.now() - 60_000).toISOString();
    const result = await runSvc(
      ['inventory', 'push', path, '--wait', '--timeout', '20', '--report', report, '--json'],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(3);
    // What the service itself recorded: every failed channel result of this push's operations.
    const operations = (await get(emu, `/operations?limit=100&created_after=${since}`)).body as {
      data: Array<{ results?: Array<{ sku: string; status: string; error?: { code: string } }> }>;
    };
    const refused = operations.data.flatMap((op) =>
      (op.results ?? []).filter((r) => r.status === 'failed' && pushed.has(r.sku)),
    );
    expect(refused.length).toBeGreaterThan(10);
    const refusedSkus = new Set(refused.map((r) => r.sku));
    const rows = readFileSync(report, 'utf8').trim().split('\r\n').slice(1);
    // One row per SKU of the file, in its order: its final state.
    expect(rows.map((row) => row.split(',')[1])).toEqual(stock.map((row) => row.sku));
    const failedRows = rows.filter((row) => /^\d+,[^,]+,failed,channel_error,/.test(row));
    expect(failedRows.map((row) => row.split(',')[1]).sort()).toEqual([...refusedSkus].sort());
    expect(rows.filter((row) => /^\d+,[^,]+,updated,/.test(row))).toHaveLength(150 - refusedSkus.size);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 150, updated: 150 - refusedSkus.size, failed: refusedSkus.size });
    expect(summary.channel_failures).toHaveLength(refused.length);
    expect(summary.channel_failures.map((f: { key: string }) => f.key).sort()).toEqual(
      refused.map((r) => r.sku).sort(),
    );
    // A SKU refused on two channels is two refusals of one SKU: both counts, never more SKUs than pushed.
    expect(result.stderr).toContain(
      `the channels refused ${refused.length} updates of ${refusedSkus.size} SKUs; every one is in ${report}`,
    );
  });

  it('exits 8 when operations are still pending at the timeout', async () => {
    const emu = await startPaced({ channelDelayMs: 60_000 });
    const { path } = stockFile(emu, 150);
    const result = await runSvc(['inventory', 'push', path, '--wait', '--timeout', '1'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(8);
    expect(result.stderr).toMatch(/still pending/);
  });
});

describe('inventory push asked at a terminal', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  it('reads the store first and shows the largest changes above the question; --yes neither asks nor reads', async () => {
    const skus = emu.store.allSkus().slice(0, 3);
    const path = join(tempDir('svc-guided-'), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${skus.map((sku, index) => `${sku},${9000 + index}`).join('\n')}\n`);
    const env = envFor(emu);
    const asked = await runAtKeyboard(['inventory', 'push', path], {
      env,
      keys: [{ when: /\(y\/N\)/, keys: `y${KEYS.enter}` }],
    });
    expect(asked.code, plainText(asked.screen)).toBe(0);
    const screen = plainText(asked.screen);
    expect(screen).toContain('All 3 changes, zeroings first:');
    expect(screen.indexOf(skus[2])).toBeLessThan(screen.indexOf(skus[0], screen.indexOf('All 3 changes')));
    expect(screen.indexOf('All 3 changes')).toBeLessThan(screen.indexOf('Push 3 SKUs in 1 request'));
    expect(emu.store.inventoryBySku(skus[0])?.quantity).toBe(9000);

    emu.reset();
    const yes = await runSvc(['inventory', 'push', path, '--yes'], { env });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).not.toMatch(/Largest changes|changes, zeroings first|Reading the store/);
    expect(emu.requests({ method: 'GET' })).toHaveLength(0);
  });
});
