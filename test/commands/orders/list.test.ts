/**
 * An incremental export's mark follows the store, not the key: a routine key rotation, or
 * another profile of the same store, carries on from it; another store at the same address
 * is refused by name. Then the list itself: CSV rows per order line, and --since-last over runs
 * with orders arriving between and during them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import {
  createManualClock,
  type ManualClock,
  type RequestFilter,
  type RunningEmulator,
} from '../../../src/emulator/index.js';
import type { OrderRecord } from '../../../src/emulator/model.js';
import { emulator, emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { memoryIO } from '../../helpers/memory-io.js';
import { crawl as apiCrawl } from '../../helpers/service-api.js';
import { type StoreRouter, storeRouter } from '../../helpers/store-router.js';
import { freshConfigDir, runSvc, type SvcResult } from '../../helpers/svc.js';

// The bundle defines it; main() runs here from the sources.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

const start = emulatorPerTest({ rateLimit: false, orders: 30 });
const routers: StoreRouter[] = [];
afterEach(async () => {
  await Promise.all(routers.splice(0).map((router) => router.close()));
});

/** Runs `svc ARGS` in-process with `env` (and standard input, when given). */
async function svc(args: string[], env: Record<string, string>, stdin?: string) {
  const io = memoryIO();
  if (stdin !== undefined) (io.stdin as PassThrough).end(stdin);
  const code = await main(['node', 'svc', ...args], { io, env: { NO_COLOR: '1', ...env } });
  return { code, out: io.out(), err: io.err() };
}

const EXPORT = ['orders', 'list', '--since-last', 'nightly', '-o', 'ndjson'];
const idsOf = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);

/** `count` new orders, a second apart, by the emulator's clock. */
function arrive(emu: RunningEmulator, clock: ManualClock, count: number): string[] {
  clock.advance(60_000);
  return Array.from({ length: count }, () => {
    clock.advance(1_000);
    return (emu.arrivals.arrive(clock.now()) as OrderRecord).id;
  });
}

describe('orders list --since-last follows the store, not the key', () => {
  it('a routine key rotation carries on from the mark: the new key exports only what is new', async () => {
    const clock = createManualClock();
    const emu = await start({ clock });
    const config = freshConfigDir();
    const first = await svc(EXPORT, {
      SVC_CONFIG_DIR: config,
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
    });
    expect(first.code, first.err).toBe(0);
    expect(idsOf(first.out)).toHaveLength(30);

    const rotated = emu.createKey();
    emu.revokeKey(emu.keys.live);
    const arrived = arrive(emu, clock, 3);
    const second = await svc(EXPORT, { SVC_CONFIG_DIR: config, SVC_BASE_URL: emu.url, SVC_API_KEY: rotated });
    expect(second.code, second.err).toBe(0);
    expect(idsOf(second.out).sort()).toEqual([...arrived].sort());
    expect(second.err).not.toMatch(/belongs to/);
  });

  it('two profiles of one store share the mark', async () => {
    const clock = createManualClock();
    const emu = await start({ clock });
    const config = freshConfigDir();
    for (const [profile, key] of [
      ['shop-a', emu.keys.live],
      ['shop-a-2', emu.createKey()],
    ]) {
      const login = await svc(
        [
          'auth',
          'login',
          '--with-key-stdin',
          '--insecure-storage',
          '--base-url',
          emu.url,
          '--profile',
          profile,
        ],
        { SVC_CONFIG_DIR: config },
        key,
      );
      expect(login.code, login.err).toBe(0);
    }
    expect((await svc([...EXPORT, '--profile', 'shop-a'], { SVC_CONFIG_DIR: config })).code).toBe(0);
    const arrived = arrive(emu, clock, 2);
    const other = await svc([...EXPORT, '--profile', 'shop-a-2'], { SVC_CONFIG_DIR: config });
    expect(other.code, other.err).toBe(0);
    expect(idsOf(other.out).sort()).toEqual([...arrived].sort());
  });

  it('another store at the same address is refused (exit 2) in a sentence that reads, before any order is read', async () => {
    const storeA = await start({ seed: 1 });
    const storeB = await start({ seed: 2 });
    const router = await storeRouter({ [storeA.keys.live]: storeA.url, [storeB.keys.live]: storeB.url });
    routers.push(router);
    const config = freshConfigDir();
    const made = await svc(EXPORT, {
      SVC_CONFIG_DIR: config,
      SVC_BASE_URL: router.url,
      SVC_API_KEY: storeA.keys.live,
    });
    expect(made.code, made.err).toBe(0);

    const refused = await svc(EXPORT, {
      SVC_CONFIG_DIR: config,
      SVC_BASE_URL: router.url,
      SVC_API_KEY: storeB.keys.live,
    });
    expect(refused.code).toBe(2);
    expect(refused.out).toBe('');
    expect(refused.err).toMatch(/the mark "nightly" belongs to another store at http:\/\/127\.0\.0\.1:\d+/);
    expect(refused.err).toMatch(/another --since-last name/);
    expect(refused.err).not.toMatch(/run's the|the SVC_API_KEY key/);
    expect(storeB.requests({ path: '/orders' })).toHaveLength(0);
  });

  it('a key that may not list channel accounts ties the mark to itself, and says so; another such key is refused with the way out', async () => {
    const emu = await start();
    const config = freshConfigDir();
    const ordersOnly = emu.createKey({ scopes: ['orders:read'] });
    const env = { SVC_CONFIG_DIR: config, SVC_BASE_URL: emu.url };
    const first = await svc(EXPORT, { ...env, SVC_API_KEY: ordersOnly });
    expect(first.code, first.err).toBe(0);
    expect(first.err).toMatch(/cannot list the store's channel accounts \(it lacks products:read\)/);
    const again = await svc(EXPORT, { ...env, SVC_API_KEY: ordersOnly });
    expect(again.code, again.err).toBe(0);
    const other = await svc(EXPORT, { ...env, SVC_API_KEY: emu.createKey({ scopes: ['orders:read'] }) });
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/names its store only by the key that saved it.*delete .*nightly\.json/);
  });

  it('--help says the mark is on creation time, so a --status filter sees an order once, in the status it had then', async () => {
    const help = await svc(['orders', 'list', '--help'], { SVC_CONFIG_DIR: freshConfigDir() });
    expect(help.code).toBe(0);
    const text = help.out.replace(/\s+/g, ' ');
    expect(text).toMatch(/creation time/);
    expect(text).toMatch(/once, in the status it had/);
    expect(text).toMatch(/key rotation/);
  });
});

const ndjsonIds = (result: SvcResult): string[] =>
  result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).id);

describe('orders list', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    // A frozen clock never drains a bucket: rate limiting is tested elsewhere.
    emu = await emulator({ orders: 250, rateLimit: false, clock: createManualClock() });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

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
  let emu: RunningEmulator;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = createManualClock();
    // A frozen clock never drains a bucket: rate limiting is tested elsewhere.
    emu = await emulator({ orders: 250, rateLimit: false, clock });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  /**
   * Resolves once the emulator has logged `count` requests matching `filter` (they may still be
   * held in a delay fault), or as soon as `running` ended without getting that far.
   */
  async function whenRequests(
    filter: RequestFilter,
    count: number,
    running: Promise<unknown>,
  ): Promise<void> {
    let ended = false;
    void running.finally(() => {
      ended = true;
    });
    while (emu.requests(filter).length < count && !ended) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

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

describe('orders list, against the API crawled directly', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ orders: 300 });
  });
  afterAll(() => emu.close());
  const crawl = (path: string, query?: Record<string, string>) => apiCrawl(emu, path, { query });

  it('orders list --status --all -o ndjson returns exactly the matching orders', async () => {
    const expected = (await crawl('/orders', { status: 'awaiting_shipment' })).map((o) => o.id);
    const result = await runSvc(
      ['orders', 'list', '--status', 'awaiting_shipment', '--all', '-o', 'ndjson'],
      { env: envFor(emu) },
    );
    expect(result.code).toBe(0);
    const ids = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(expected);
    expect(ids.length).toBeGreaterThan(0);
  });

  it('--limit caps the items and defaults to one page of 25', async () => {
    const limited = await runSvc(['orders', 'list', '--limit', '7', '--json'], { env: envFor(emu) });
    expect(JSON.parse(limited.stdout)).toHaveLength(7);
    const defaulted = await runSvc(['orders', 'list', '--json'], { env: envFor(emu) });
    expect(JSON.parse(defaulted.stdout)).toHaveLength(25);
    // Pages ask limit=min(100, left): one request of limit=7, one of limit=25.
    const asked = emu
      .requests({ path: '/orders' })
      .slice(-2)
      .map((r) => new URLSearchParams(r.query).get('limit'));
    expect(asked).toEqual(['7', '25']);
  });

  it('orders csv has one row per order by default (no buyer name); a row per order line with --per-line', async () => {
    const result = await runSvc(['orders', 'list', '--limit', '30', '-o', 'csv'], { env: envFor(emu) });
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    const columns = header.split(',');
    expect(columns).not.toContain('lines.sku');
    expect(columns).toContain('buyer.country');
    expect(columns).not.toContain('buyer.email');
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((row) => row.split(',')[0])).size).toBe(30);

    const perLine = await runSvc(['orders', 'list', '--limit', '30', '-o', 'csv', '--per-line'], {
      env: envFor(emu),
    });
    const [lineHeader, ...lineRows] = perLine.stdout.trimEnd().split('\n');
    expect(lineHeader.split(',')).toContain('lines.sku');
    const orders = JSON.parse(
      (await runSvc(['orders', 'list', '--limit', '30', '--json'], { env: envFor(emu) })).stdout,
    );
    const lineCount = orders.reduce(
      (n: number, o: { lines: unknown[] }) => n + Math.max(1, o.lines.length),
      0,
    );
    expect(lineRows).toHaveLength(lineCount);
  });

  it('--show-buyer adds buyer columns; json always carries the buyer', async () => {
    const csv = await runSvc(['orders', 'list', '--limit', '1', '-o', 'csv', '--show-buyer'], {
      env: envFor(emu),
    });
    expect(csv.stdout.split('\n')[0]).toContain('buyer.email');
    const json = await runSvc(['orders', 'list', '--limit', '1', '--json'], { env: envFor(emu) });
    expect(JSON.parse(json.stdout)[0].buyer.email).toMatch(/@/);
  });
});

describe('interrupted crawls', () => {
  it('Ctrl-C midway stops at once, closes the JSON array, and exits 130', async () => {
    const slow = await emulator({ orders: 2000, bucket: 2, drainPerSecond: 2 });
    try {
      const result = await runSvc(['orders', 'list', '--all', '--json'], {
        env: envFor(slow),
        // Once some pages are out, not after a time the loaded machine may not keep.
        signalWhen: {
          signal: 'SIGINT',
          when: () => slow.requests({ method: 'GET', path: '/orders', status: 200 }).length >= 3,
        },
      });
      expect(result.code).toBe(130);
      const written = JSON.parse(result.stdout);
      expect(written.length).toBeGreaterThan(0);
      expect(written.length).toBeLessThan(2000);
      expect(result.stderr).toMatch(/interrupted by SIGINT \(stopped after \d+ items\)/);
    } finally {
      await slow.close();
    }
  });
});
