/**
 * A filter the service takes one value of (`--status`, `--channel`) takes several
 * comma-separated values: svc crawls each and merges them in the list's order (`updated_at`
 * descending, then `id` descending; operations by `created_at`), each item once, `--limit`
 * counting the merged list, and the cut-list notice still right.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

interface Item {
  id: string;
  updated_at?: string;
  created_at?: string;
}

async function crawl(args: string[]): Promise<Item[]> {
  const result = await runSvc([...args, '--all', '--json'], { env: envFor(emu) });
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Item[];
}

/** The union of single-value crawls in the list's order: `key` descending, then id descending. */
function union(lists: Item[][], key: 'updated_at' | 'created_at'): string[] {
  const byId = new Map<string, Item>();
  for (const item of lists.flat()) if (!byId.has(item.id)) byId.set(item.id, item);
  return [...byId.values()]
    .sort((a, b) => {
      const [ka, kb] = [a[key] ?? '', b[key] ?? ''];
      if (ka !== kb) return ka < kb ? 1 : -1;
      return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
    })
    .map((item) => item.id);
}

const ids = (items: Item[]) => items.map((item) => item.id);

describe('several values of a one-value filter', () => {
  it('orders list --status a,b is the union of the two crawls, in list order, each order once', async () => {
    const awaiting = await crawl(['orders', 'list', '--status', 'awaiting_shipment']);
    const canceled = await crawl(['orders', 'list', '--status', 'canceled']);
    expect(awaiting.length).toBeGreaterThan(0);
    expect(canceled.length).toBeGreaterThan(0);
    const both = await crawl(['orders', 'list', '--status', 'awaiting_shipment,canceled']);
    expect(ids(both)).toEqual(union([awaiting, canceled], 'updated_at'));
    // Each value crawled as it would be alone.
    const statuses = emu
      .requests({ path: '/orders' })
      .map((request) => new URLSearchParams(request.query).get('status'));
    expect(statuses).toContain('awaiting_shipment');
    expect(statuses).toContain('canceled');
    expect(statuses).not.toContain('awaiting_shipment,canceled');
  });

  it('--limit counts the merged list, and the cut-list notice says so only when more is left', async () => {
    const merged = await crawl(['orders', 'list', '--status', 'refunded,canceled']);
    expect(merged.length).toBeGreaterThan(8);
    const cut = await runSvc(['orders', 'list', '--status', 'refunded,canceled', '--limit', '8', '--json'], {
      env: envFor(emu),
    });
    expect(cut.code, cut.stderr).toBe(0);
    expect(ids(JSON.parse(cut.stdout))).toEqual(ids(merged).slice(0, 8));
    expect(cut.stderr).toContain('Showing the first 8 orders');
    // Exactly the whole merged list: nothing is left, so nothing is said.
    const whole = await runSvc(
      ['orders', 'list', '--status', 'refunded,canceled', '--limit', String(merged.length), '--json'],
      { env: envFor(emu) },
    );
    expect(whole.code, whole.stderr).toBe(0);
    expect(ids(JSON.parse(whole.stdout))).toEqual(ids(merged));
    expect(whole.stderr).not.toContain('Showing the first');
  });

  it('listings list --channel a,b and --status a,b together: every combination, merged', async () => {
    const parts = [];
    for (const channel of ['etsy', 'walmart'])
      for (const status of ['error', 'delisted'])
        parts.push(await crawl(['listings', 'list', '--channel', channel, '--status', status]));
    const merged = await crawl([
      'listings',
      'list',
      '--channel',
      'etsy,walmart',
      '--status',
      'error,delisted',
    ]);
    expect(merged.length).toBeGreaterThan(5);
    expect(ids(merged)).toEqual(union(parts, 'updated_at'));
  });

  it('operations list --status a,b merges by created_at', async () => {
    const failed = await crawl(['operations', 'list', '--status', 'failed']);
    const partial = await crawl(['operations', 'list', '--status', 'partial']);
    const both = await crawl(['operations', 'list', '--status', 'failed,partial']);
    expect(ids(both)).toEqual(union([failed, partial], 'created_at'));
  });

  it('each value is checked as one value is: a typo in the second exits 2 naming the closest, nothing listed', async () => {
    const result = await runSvc(['orders', 'list', '--status', 'awaiting_shipment,shiped'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--status "shiped"');
    expect(result.stderr).toContain('did you mean "shipped"?');
    expect(emu.requests({ path: '/orders' })).toEqual([]);
    const channel = await runSvc(['listings', 'list', '--channel', 'etsy,ebey'], { env: envFor(emu) });
    expect(channel.code).toBe(2);
    expect(channel.stderr).toContain('did you mean "ebay"?');
  });

  it('the listings table keeps STATUS under --status a,b (only one value fixes it)', async () => {
    const result = await runSvc(['listings', 'list', '--status', 'error,delisted', '-o', 'table'], {
      env: { ...envFor(emu), COLUMNS: '80' },
    });
    expect(result.code, result.stderr).toBe(0);
    const header = result.stdout.split('\n')[0];
    expect(header).toMatch(/\bSTATUS\b/);
    expect(result.stdout).toMatch(/\berror\b/);
    expect(result.stdout).toMatch(/\bdelisted\b/);
  });

  it('listings retry --channel a,b selects the listings of both kinds', async () => {
    const dry = async (channel: string) => {
      const result = await runSvc(
        [
          'listings',
          'retry',
          '--error-code',
          'attribute_value_invalid',
          '--channel',
          channel,
          '--dry-run',
          '--json',
        ],
        { env: envFor(emu) },
      );
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as Item[];
    };
    const ebay = await dry('ebay');
    const amazon = await dry('amazon');
    expect(ebay.length).toBeGreaterThan(0);
    expect(amazon.length).toBeGreaterThan(0);
    expect(ids(await dry('ebay,amazon'))).toEqual(union([ebay, amazon], 'updated_at'));
  });

  it('--since-last follows one list: several values are refused (exit 2), nothing listed', async () => {
    const result = await runSvc(['orders', 'list', '--since-last', 'daily', '--status', 'shipped,refunded'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--status takes one value here');
    expect(emu.requests({ path: '/orders' })).toEqual([]);
  });
});
