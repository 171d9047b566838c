/**
 * The read commands across nouns against one store of 300 orders: what they print matches the
 * API crawled directly, a crawl interrupted midway closes its output, and bad input or a failing
 * service ends in one line, the documented exit code and no stack trace.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 300 });
});
afterAll(() => emu.close());

/** Every item of a list via the API itself, for comparing with what svc printed. */
async function crawl(
  path: string,
  query: Record<string, string> = {},
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams({ ...query, limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${emu.url}/rest/v1${path}?${params}`, {
      headers: { authorization: `Bearer ${emu.keys.live}` },
    });
    const page = (await res.json()) as {
      data: Array<Record<string, unknown>>;
      has_more: boolean;
      next_cursor: string | null;
    };
    items.push(...page.data);
    cursor = page.has_more ? (page.next_cursor ?? undefined) : undefined;
  } while (cursor);
  return items;
}

describe('read commands', () => {
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

  it('listings list filters by status and error code across pages', async () => {
    const expected = (
      await crawl('/listings', { status: 'error', error_code: 'photo_required_for_channel' })
    ).map((l) => l.id);
    const result = await runSvc(
      [
        'listings',
        'list',
        '--status',
        'error',
        '--error-code',
        'photo_required_for_channel',
        '--all',
        '--json',
      ],
      { env: envFor(emu) },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((l: { id: string }) => l.id)).toEqual(expected);
  });

  it('channels list, get, policies and products get agree with the API', async () => {
    const accounts = JSON.parse((await runSvc(['channels', 'list', '--json'], { env: envFor(emu) })).stdout);
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    const kinds = accounts.map((a: { channel: string }) => a.channel);
    expect(new Set(kinds).size).toBeLessThan(kinds.length); // two accounts share a kind
    const account = JSON.parse(
      (await runSvc(['channels', 'get', accounts[0].id, '--json'], { env: envFor(emu) })).stdout,
    );
    expect(account.id).toBe(accounts[0].id);
    expect(account).toHaveProperty('sync');
    const policies = await runSvc(['channels', 'policies', accounts[0].id, '--json'], { env: envFor(emu) });
    expect(policies.code).toBe(0);
    expect(Array.isArray(JSON.parse(policies.stdout))).toBe(true);
    const [product] = await crawl('/products');
    const got = JSON.parse(
      (await runSvc(['products', 'get', String(product.id), '--json'], { env: envFor(emu) })).stdout,
    );
    expect(got.id).toBe(product.id);
  });

  it('tsv when piped, with a header and one line per item', async () => {
    const result = await runSvc(['operations', 'list', '--limit', '5'], { env: envFor(emu) });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0].split('\t')).toContain('status');
    expect(lines).toHaveLength(6);
  });

  it('--fields keeps only the named fields in json and the columns in csv', async () => {
    const json = await runSvc(['orders', 'list', '--limit', '2', '--json', '--fields', 'id,buyer.country'], {
      env: envFor(emu),
    });
    for (const order of JSON.parse(json.stdout)) expect(Object.keys(order).sort()).toEqual(['buyer', 'id']);
    const csv = await runSvc(['events', 'list', '--limit', '2', '-o', 'csv', '--fields', 'id,type'], {
      env: envFor(emu),
    });
    expect(csv.stdout.split('\n')[0]).toBe('id,type');
  });

  it('events list --type and --since filter the log', async () => {
    const result = await runSvc(
      ['events', 'list', '--type', 'order.created', '--since', '7d', '--all', '--json'],
      { env: envFor(emu) },
    );
    expect(result.code).toBe(0);
    const events = JSON.parse(result.stdout);
    const weekAgo = Date.now() - 7 * 86_400_000 - 60_000;
    for (const event of events) {
      expect(event.type).toBe('order.created');
      expect(Date.parse(event.created_at)).toBeGreaterThanOrEqual(weekAgo);
    }
  });

  it('status and health need no key', async () => {
    const env = { SVC_BASE_URL: emu.url, SVC_API_KEY: undefined };
    const status = await runSvc(['status', '--json'], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).state).toBe('operational');
    const health = await runSvc(['health', '--json'], { env });
    expect(JSON.parse(health.stdout).status).toBe('ok');
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

describe('bad input: one line on stderr, the documented exit code, no stack trace', () => {
  const cases: Array<[string, string[], Record<string, string | undefined> | 'default', number, RegExp]> = [
    ['unknown command', ['ordrs', 'list'], 'default', 2, /unknown command 'ordrs'.*orders/],
    ['unknown flag', ['orders', 'list', '--colour'], 'default', 2, /unknown option '--colour'/],
    ['bad --limit', ['orders', 'list', '--limit', '0'], 'default', 2, /--limit takes a whole number/],
    ['unparseable time', ['orders', 'list', '--created-after', 'last tuesday'], 'default', 2, /ISO 8601/],
    ['unknown profile', ['--profile', 'nope', 'orders', 'list'], 'default', 2, /unknown profile "nope"/],
    ['no key', ['orders', 'list'], { SVC_API_KEY: undefined }, 4, /no API key configured/],
    ['malformed key', ['orders', 'list'], { SVC_API_KEY: 'sk_live_123' }, 4, /malformed/],
    [
      'rejected key',
      ['orders', 'list'],
      { SVC_API_KEY: 'svc_live_unknownkey123' },
      4,
      /401.*api_key_invalid/,
    ],
    [
      'unreachable host',
      ['orders', 'list', '--max-retries', '0'],
      { SVC_BASE_URL: 'http://127.0.0.1:9' },
      1,
      /could not connect/,
    ],
  ];
  for (const [name, args, env, code, message] of cases) {
    it(name, async () => {
      const result = await runSvc(args, { env: { ...envFor(emu), ...(env === 'default' ? {} : env) } });
      expect(result.code).toBe(code);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('5xx until retries run out: exit 1 naming the status, after the asked retries', async () => {
    emu.faults.inject({ method: 'GET', path: '/orders', kind: 'internal_error', times: 3 });
    const before = emu.requests({ path: '/orders' }).length;
    const result = await runSvc(['orders', 'list', '--max-retries', '2'], { env: envFor(emu) });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/HTTP 500 internal_error/);
    expect(emu.requests({ path: '/orders' }).length - before).toBe(3);
    emu.faults.clear();
  });

  it('a connection reset on every try: exit 1 with a clear line', async () => {
    emu.faults.inject({ method: 'GET', path: '/orders', kind: 'drop_before', times: 2 });
    const result = await runSvc(['orders', 'list', '--max-retries', '1'], { env: envFor(emu) });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^error: .*(reset|closed|socket)/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    emu.faults.clear();
  });

  it('an answer that is not JSON: exit 1 saying what came back', async () => {
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const result = await runSvc(['orders', 'list'], {
        env: { ...envFor(emu), SVC_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n').at(-1)).toMatch(/not JSON|text\/html/);
    } finally {
      server.close();
    }
  });

  it('a key missing a scope names the scope', async () => {
    const result = await runSvc(['events', 'list'], { env: envFor(emu, 'read_only') });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/events:read/);
  });

  it('the lapsed key exits 4 with plan_not_eligible', async () => {
    const result = await runSvc(['orders', 'list'], { env: envFor(emu, 'lapsed') });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/plan_not_eligible/);
  });

  it('with --json the error is also JSON on stderr: a stable code, the exit code, the service code beside', async () => {
    const result = await runSvc(['orders', 'get', 'ord_missing', '--json'], { env: envFor(emu) });
    expect(result.code).toBe(1);
    // The last line of stderr, after the line for people.
    const jsonLine = result.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(JSON.parse(jsonLine).error).toMatchObject({
      code: 'not_found',
      exit_code: 1,
      status: 404,
      service_code: 'resource_missing',
      request_id: expect.stringMatching(/^req_/),
    });
  });
});
