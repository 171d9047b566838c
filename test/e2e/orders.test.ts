import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createManualClock,
  type ManualClock,
  type RequestFilter,
  type RunningEmulator,
} from '../../src/emulator/index.js';
import type { OrderRecord } from '../../src/emulator/model.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc, type SvcResult } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
let clock: ManualClock;
beforeAll(async () => {
  clock = createManualClock();
  // A frozen clock never drains a bucket: rate limiting is tested elsewhere.
  emu = await emulator({ orders: 250, rateLimit: false, clock });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const ordersWith = (status: string): OrderRecord[] =>
  [...emu.store.orders.values()].filter((order) => order.status === status);

/**
 * Resolves once the emulator has logged `count` requests matching `filter` (they may still be
 * held in a delay fault), or as soon as `running` ended without getting that far.
 */
async function whenRequests(filter: RequestFilter, count: number, running: Promise<unknown>): Promise<void> {
  let ended = false;
  void running.finally(() => {
    ended = true;
  });
  while (emu.requests(filter).length < count && !ended) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A shipments CSV in a fresh temp dir: header, then one line per row. */
function shipmentsFile(rows: string[][], header = 'order_id,tracking_number,carrier,tracking_url'): string {
  const path = join(tempDir('svc-ship-'), 'shipments.csv');
  writeFileSync(path, `${header}\n${rows.map((row) => row.join(',')).join('\n')}\n`);
  return path;
}

const ndjsonIds = (result: SvcResult): string[] =>
  result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).id);

const fulfillPosts = (id?: string) =>
  emu.requests({ method: 'POST', path: id ? `/orders/${id}/fulfillment` : /^\/orders\/[^/]+\/fulfillment$/ });

describe('orders list', () => {
  it('-o csv writes a row per order line with the order columns repeated', async () => {
    const result = await runSvc(['orders', 'list', '--all', '-o', 'csv', '--fields', 'id,total,lines.sku'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').slice(1);
    const multi = [...emu.store.orders.values()].find(
      (o) => new Set(o.lines.map((l) => l.sku)).size > 1,
    ) as OrderRecord;
    const mine = rows.filter((row) => row.startsWith(`${multi.id},`));
    expect(mine).toEqual(multi.lines.map((line) => `${multi.id},${multi.total},${line.sku}`));
    expect(rows).toHaveLength(
      [...emu.store.orders.values()].reduce((n, o) => n + Math.max(1, o.lines.length), 0),
    );
  });

  it('refuses a status the API reference does not list; svc api sends it (new values may appear)', async () => {
    const refused = await runSvc(['orders', 'list', '--status', 'on_hold', '--json'], { env: envFor(emu) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('svc api GET /orders -f status=on_hold');
    const result = await runSvc(['api', 'GET', '/orders', '-f', 'status=on_hold'], { env: envFor(emu) });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data).toEqual([]);
    expect(new URLSearchParams(emu.requests({ path: '/orders' }).at(-1)?.query).get('status')).toBe(
      'on_hold',
    );
  });
});

describe('orders list --since-last', () => {
  it('over runs with orders arriving between and during them and updated mid-crawl, exports each order exactly once', async () => {
    const env = envFor(emu);
    const args = ['orders', 'list', '--since-last', 'accounting', '-o', 'ndjson'];
    const list = () => emu.requests({ path: '/orders' }).length;
    const arrive = (count: number) => {
      const arrived: string[] = [];
      for (let i = 0; i < count; i++) {
        clock.advance(100);
        arrived.push((emu.arrivals.arrive(clock.now()) as OrderRecord).id);
      }
      return arrived;
    };
    /** Runs the export and, while its second page is held back, changes the store. */
    const runWhileChanging = async (change: () => void) => {
      const before = list();
      emu.faults.inject({ method: 'GET', path: '/orders', kind: 'delay', delayMs: 300, times: 2 });
      const running = runSvc(args, { env });
      await whenRequests({ path: '/orders' }, before + 2, running);
      clock.advance(5_000);
      change();
      const result = await running;
      expect(result.code, result.stderr).toBe(0);
      return { result, requests: list() - before };
    };

    // Run 1, three pages: mid-crawl, an order at the tail is updated (it jumps ahead of the
    // cursor), one already printed is updated, and new orders arrive.
    const byUpdate = [...emu.store.orders.values()].sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1));
    const tail = byUpdate.at(-1) as OrderRecord;
    const head = byUpdate[0];
    let arrivedDuring: string[] = [];
    const first = await runWhileChanging(() => {
      emu.store.updateOrder(tail.id, { status: 'canceled' });
      emu.store.updateOrder(head.id);
      arrivedDuring = arrive(2);
    });
    const run1 = ndjsonIds(first.result);
    expect(run1).toContain(tail.id);
    expect(run1.filter((id) => id === head.id)).toHaveLength(1);
    expect(run1).toEqual(expect.arrayContaining(arrivedDuring));
    expect(new Set(run1).size).toBe(run1.length);
    expect(first.requests).toBeGreaterThanOrEqual(4); // three pages and a closing pass
    const markFile = join(env.SVC_CONFIG_DIR, 'marks', 'accounting.json');
    const mark = JSON.parse(readFileSync(markFile, 'utf8'));
    // The mark comes from the emulator's clock (2025), not this machine's.
    expect(mark.created_after.startsWith('2025-06-15T')).toBe(true);
    expect(mark.boundary_ids).toEqual(expect.arrayContaining(arrivedDuring));

    // Between runs: new orders (one created exactly at the mark: created_after is inclusive),
    // and old orders updated, which must not come again.
    clock.advance(60_000);
    const atMark = emu.arrivals.arrive(Date.parse(mark.created_after)) as OrderRecord;
    const arrivedBetween = arrive(150);
    emu.store.updateOrder(byUpdate[10].id, { status: 'refunded' });

    // Run 2, two pages: more arrive and an already-exported order is updated mid-crawl.
    let arrivedDuring2: string[] = [];
    const second = await runWhileChanging(() => {
      emu.store.updateOrder(arrivedBetween[0]); // on the second page: jumps ahead of the cursor
      emu.store.updateOrder(arrivedBetween.at(-1) as string); // on the first page: already printed
      arrivedDuring2 = arrive(3);
    });
    const run2 = ndjsonIds(second.result);
    expect(run2).toEqual(expect.arrayContaining([atMark.id, ...arrivedBetween, ...arrivedDuring2]));
    expect(run2).not.toContain(byUpdate[10].id);
    expect(second.result.stderr).toMatch(/Exported 154 orders created since 2025-06-15T/);

    // Run 3, quiet: nothing new, nothing again.
    const third = await runSvc(args, { env });
    expect(third.code).toBe(0);
    const all = [...run1, ...run2, ...ndjsonIds(third)];
    expect(all.length).toBe(new Set(all).size);
    expect(new Set(all)).toEqual(new Set(emu.store.orders.keys()));
  });

  it('a crawl that fails leaves the mark where it was', async () => {
    const env = envFor(emu);
    const args = ['orders', 'list', '--since-last', 'nightly', '-o', 'ndjson', '--max-retries', '0'];
    expect((await runSvc(args, { env })).code).toBe(0);
    const markFile = join(env.SVC_CONFIG_DIR, 'marks', 'nightly.json');
    const saved = readFileSync(markFile, 'utf8');
    clock.advance(60_000);
    for (let i = 0; i < 120; i++) emu.arrivals.arrive(clock.now() - i);
    // The first page goes through (the harmless delay matches first), the second fails.
    emu.faults.inject({ method: 'GET', path: '/orders', kind: 'delay', delayMs: 1, times: 1 });
    emu.faults.inject({ method: 'GET', path: '/orders', kind: 'internal_error', times: 1 });
    const failed = await runSvc(args, { env });
    expect(failed.code).toBe(1);
    expect(ndjsonIds(failed).length).toBe(100);
    expect(readFileSync(markFile, 'utf8')).toBe(saved);
    const again = await runSvc(args, { env });
    expect(again.code).toBe(0);
    expect(ndjsonIds(again)).toHaveLength(120);
  });

  it('a mark belongs to one service address and names its store by its channel accounts, never by a key', async () => {
    const env = envFor(emu);
    const args = ['orders', 'list', '--since-last', 'nightly', '-o', 'ndjson'];
    expect((await runSvc(args, { env })).code).toBe(0);
    const markText = readFileSync(join(env.SVC_CONFIG_DIR, 'marks', 'nightly.json'), 'utf8');
    expect(markText).not.toContain(emu.keys.live);
    expect(JSON.parse(markText).store).toEqual({
      base_url: emu.url,
      channel_accounts: [...emu.store.accounts.keys()].sort(),
    });
    // Another address, with the same seeded store (localhost would be this one: base URLs are
    // normalised before they key marks).
    const elsewhere = await emulator({ orders: 250, rateLimit: false, clock });
    const otherAddress = await runSvc(args, { env: { ...env, SVC_BASE_URL: elsewhere.url } }).finally(() =>
      elsewhere.close(),
    );
    expect(otherAddress.code).toBe(2);
    expect(otherAddress.stderr).toContain(`belongs to the service at ${emu.url}`);
  });

  it('refuses --limit and a changed filter under the same name (exit 2)', async () => {
    const env = envFor(emu);
    const limited = await runSvc(['orders', 'list', '--since-last', 'x', '--limit', '5'], { env });
    expect(limited.code).toBe(2);
    expect(limited.stderr).toContain('--limit');
    expect(
      (await runSvc(['orders', 'list', '--since-last', 'x', '--status', 'shipped', '-o', 'ndjson'], { env }))
        .code,
    ).toBe(0);
    const changed = await runSvc(['orders', 'list', '--since-last', 'x', '-o', 'ndjson'], { env });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('status=shipped');
    const badName = await runSvc(['orders', 'list', '--since-last', '../etc'], { env });
    expect(badName.code).toBe(2);
  });
});

describe('orders fulfill', () => {
  it('ships one order; a repeat with the same tracking is done, another tracking is refused (exit 1)', async () => {
    const order = ordersWith('awaiting_shipment')[0];
    const env = envFor(emu);
    const args = ['orders', 'fulfill', order.id, '--tracking-number', '1Z001', '--carrier', 'UPS'];
    const first = await runSvc(
      [...args, '--tracking-url', 'https://www.ups.com/track?tracknum=1Z001', '--json'],
      { env },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      id: order.id,
      status: 'shipped',
      tracking: { number: '1Z001' },
    });
    expect(emu.store.orders.get(order.id)?.tracking?.url).toBe('https://www.ups.com/track?tracknum=1Z001');
    const again = await runSvc(args, { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already shipped with tracking 1Z001');
    const other = await runSvc(
      ['orders', 'fulfill', order.id, '--tracking-number', '1Z999', '--carrier', 'UPS'],
      { env },
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('already shipped with tracking 1Z001');
  });

  it('a shipments file with one canceled order ships the others and exits 3 naming it; run again, it skips what shipped', async () => {
    const ready = ordersWith('awaiting_shipment').slice(0, 4);
    const canceled = ordersWith('canceled')[0];
    const rows = ready.map((o, i) => [
      o.id,
      `1Z10${i}`,
      'UPS',
      `https://www.ups.com/track?tracknum=1Z10${i}`,
    ]);
    rows.splice(2, 0, [canceled.id, '940011', 'USPS', '']);
    const file = shipmentsFile(rows);
    const report = join(tempDir('svc-rep-'), 'report.csv');
    const env = envFor(emu);
    const first = await runSvc(['orders', 'fulfill', '--file', file, '--report', report], { env });
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toContain(canceled.id);
    expect(first.stderr).toMatch(/line 4: .*canceled/);
    expect(first.stderr).toMatch(/5 orders in \d+ requests .*: 4 updated, 1 failed/);
    for (const [i, o] of ready.entries())
      expect(emu.store.orders.get(o.id)?.tracking?.number).toBe(`1Z10${i}`);
    expect(emu.store.orders.get(canceled.id)?.status).toBe('canceled');
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('line,key,status,code,message');
    expect(lines.filter((l) => l.includes(',updated,'))).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(`4,${canceled.id},failed,invalid_state,`))).toBeDefined();
    // Each POST carried its own Idempotency-Key.
    expect(new Set(emu.idempotencyKeys({ method: 'POST' })).size).toBe(5);

    const second = await runSvc(['orders', 'fulfill', '--file', file, '--json'], { env });
    expect(second.code).toBe(3);
    expect(JSON.parse(second.stdout)).toMatchObject({ total: 5, updated: 0, skipped: 4, failed: 1 });
  });

  it('a fulfillment whose connection drops after it was applied is read back, not sent twice', async () => {
    const [single, viaFile] = ordersWith('awaiting_shipment');
    const env = envFor(emu);
    emu.faults.inject({ method: 'POST', path: /\/fulfillment$/, kind: 'drop_after', times: 1 });
    const result = await runSvc(
      ['orders', 'fulfill', single.id, '--tracking-number', 'T1', '--carrier', 'DHL'],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(fulfillPosts(single.id)).toHaveLength(1);
    const reads = emu.requests({ method: 'GET', path: `/orders/${single.id}` });
    expect(reads).toHaveLength(1);
    expect(reads[0].seq).toBeGreaterThan(fulfillPosts(single.id)[0].seq);
    expect(emu.store.orders.get(single.id)).toMatchObject({ status: 'shipped', tracking: { number: 'T1' } });
    // order.status_changed once: the marketplace heard of it once.
    const changes = [...emu.store.events.values()].filter(
      (e) => e.type === 'order.status_changed' && (e.data.object as { id: string }).id === single.id,
    );
    expect(changes.filter((e) => (e.data.object as { status: string }).status === 'shipped')).toHaveLength(1);

    emu.faults.inject({ method: 'POST', path: /\/fulfillment$/, kind: 'drop_after', times: 1 });
    const file = shipmentsFile([[viaFile.id, 'T2', 'DHL', '']]);
    const bulk = await runSvc(['orders', 'fulfill', '--file', file, '--json'], { env });
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(JSON.parse(bulk.stdout)).toMatchObject({ total: 1, updated: 1, requests: 2 });
    expect(fulfillPosts(viaFile.id)).toHaveLength(1);
  });

  it('a missing carrier on one line stops the whole file (exit 2) and sends nothing', async () => {
    const [a, b, c] = ordersWith('awaiting_shipment');
    const file = shipmentsFile([
      [a.id, '1Z1', 'UPS', ''],
      [b.id, '1Z2', '', ''],
      [c.id, '1Z3', 'UPS', ''],
    ]);
    const report = join(tempDir('svc-fulfill-report-'), 'report.csv');
    const result = await runSvc(['orders', 'fulfill', '--file', file, '--report', report, '--json'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`line 3: missing carrier (order ${b.id})`);
    expect(emu.requests()).toHaveLength(0);
    // Nothing was sent, yet the report and the JSON error name the bad line.
    expect(readFileSync(report, 'utf8').trim().split('\r\n')).toEqual([
      'line,key,status,code,message',
      `3,${b.id},invalid,missing_carrier,missing carrier (order ${b.id})`,
    ]);
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error.problems).toEqual([
      { line: 3, key: b.id, code: 'missing_carrier', message: `missing carrier (order ${b.id})` },
    ]);
  });

  it('--dry-run checks the file and sends nothing', async () => {
    const [a] = ordersWith('awaiting_shipment');
    const file = shipmentsFile([[a.id, '1Z1', 'UPS', '']]);
    const result = await runSvc(['orders', 'fulfill', '--file', file, '--dry-run', '--json'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      orders: 1,
      would_send: 1,
      requests: 1,
      write_quota: 0,
    });
    // Reads only: the order is read to say what the run would do with it.
    expect(emu.requests().map((request) => request.method)).toEqual(['GET']);
  });

  it('an unknown order id exits 1 naming it; bad flags exit 2 before sending', async () => {
    const env = envFor(emu);
    const unknown = await runSvc(
      ['orders', 'fulfill', 'ord_doesnotexist', '--tracking-number', '1', '--carrier', 'UPS'],
      { env },
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('ord_doesnotexist');
    const noCarrier = await runSvc(['orders', 'fulfill', 'ord_x', '--tracking-number', '1'], { env });
    expect(noCarrier.code).toBe(2);
    expect(noCarrier.stderr).toContain('--carrier');
    const badUrl = await runSvc(
      ['orders', 'fulfill', 'ord_x', '--tracking-number', '1', '--carrier', 'UPS', '--tracking-url', 'nope'],
      { env },
    );
    expect(badUrl.code).toBe(2);
    expect((await runSvc(['orders', 'fulfill'], { env })).code).toBe(2);
    expect(fulfillPosts()).toHaveLength(1);
  });

  it('a key without orders:write exits 4 and changes nothing', async () => {
    const [a, b] = ordersWith('awaiting_shipment');
    const env = { ...envFor(emu), SVC_API_KEY: emu.createKey({ scopes: ['orders:read'] }) };
    const single = await runSvc(['orders', 'fulfill', a.id, '--tracking-number', '1', '--carrier', 'UPS'], {
      env,
    });
    expect(single.code).toBe(4);
    expect(single.stderr).toContain('orders:write');
    const file = shipmentsFile([[b.id, '2', 'UPS', '']]);
    const bulk = await runSvc(['orders', 'fulfill', '--file', file], { env });
    expect(bulk.code).toBe(4);
    expect(emu.store.orders.get(a.id)?.status).toBe('awaiting_shipment');
    expect(emu.store.orders.get(b.id)?.status).toBe('awaiting_shipment');
  });
});
