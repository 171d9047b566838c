/**
 * Servers that misbehave in ways the emulator cannot: every wait has a floor, every request a
 * deadline, every crawl an end.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emulator } from '../helpers/emulator.js';
import {
  ANY_KEY,
  type MisbehavingServer,
  misbehavingServer,
  rateLimited,
  sendJson,
  trickle,
} from '../helpers/misbehaving-server.js';
import { get } from '../helpers/service-api.js';
import { runSvc } from '../helpers/svc.js';

const servers: MisbehavingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handle: Parameters<typeof misbehavingServer>[0]): Promise<MisbehavingServer> {
  const server = await misbehavingServer(handle);
  servers.push(server);
  return server;
}

const envOf = (server: MisbehavingServer, extra: Record<string, string> = {}) => ({
  SVC_BASE_URL: server.url,
  SVC_API_KEY: ANY_KEY,
  ...extra,
});

/** Two real orders, as the emulator serves them, to page with. */
let orders: unknown[];
beforeAll(async () => {
  const emu = await emulator({ orders: 5 });
  orders = (await get(emu, '/orders?limit=2', emu.keys.test)).body.data;
  await emu.close();
  expect(orders).toHaveLength(2);
});

describe('Retry-After has a floor', () => {
  for (const value of ['0', '-5', '10, 20']) {
    it(`a 429 with Retry-After "${value}" waits at least 1 s between tries`, async () => {
      const server = await serve((_req, res) => rateLimited(res, value));
      const result = await runSvc(['orders', 'list'], {
        env: envOf(server),
        signalWhen: { signal: 'SIGINT', when: () => server.arrivals.length >= 3 },
      });
      expect(result.code, result.stderr).toBe(130);
      const [a, b, c] = server.arrivals.map((arrival) => arrival.atMs);
      expect(b - a).toBeGreaterThanOrEqual(900);
      expect(c - b).toBeGreaterThanOrEqual(900);
    });
  }

  it('a 503 asking to wait beyond 120 s says so, not "failed after retries"', async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        503,
        { error: { type: 'api_error', code: 'service_unavailable', message: 'Down for maintenance.' } },
        { 'retry-after': '100000' },
      ),
    );
    const result = await runSvc(['orders', 'list'], { env: envOf(server) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/asks to wait 100000 s.*longer than 120 s/);
    expect(result.stderr).not.toMatch(/failed after retries/);
    expect(server.arrivals).toHaveLength(1);
  });
});

describe('every request has a deadline', () => {
  it('an answer trickled byte by byte ends at SVC_REQUEST_TIMEOUT as a network error, retried as one', async () => {
    const server = await serve((_req, res) => trickle(res, 200));
    const started = performance.now();
    const result = await runSvc(['orders', 'list', '--max-retries', '1'], {
      env: envOf(server, { SVC_REQUEST_TIMEOUT: '1' }),
      timeoutMs: 20_000,
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/no complete answer within 1 s/);
    expect(server.arrivals).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('a server that accepts and never answers ends at --request-timeout', async () => {
    const server = await serve(() => {});
    const result = await runSvc(['orders', 'list', '--request-timeout', '1', '--max-retries', '2'], {
      env: envOf(server),
      timeoutMs: 20_000,
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/failed \(no complete answer within 1 s\), after 2 retries/);
    expect(server.arrivals).toHaveLength(3);
  });

  it('refuses a --request-timeout or SVC_REQUEST_TIMEOUT that is not a positive number (exit 2)', async () => {
    const server = await serve(() => {});
    const flag = await runSvc(['orders', 'list', '--request-timeout', '0'], { env: envOf(server) });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--request-timeout/);
    const env = await runSvc(['orders', 'list'], { env: envOf(server, { SVC_REQUEST_TIMEOUT: 'soon' }) });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/SVC_REQUEST_TIMEOUT/);
    expect(server.arrivals).toHaveLength(0);
  });

  it('refuses a deadline beyond a day (exit 2): a timer cannot hold it, and would fire at once', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { data: [], has_more: false }));
    for (const [args, extra, named] of [
      [['--request-timeout', '3000000'], {}, '--request-timeout'],
      [['--request-timeout', '1e9'], {}, '--request-timeout'],
      [[], { SVC_REQUEST_TIMEOUT: '1e9' }, 'SVC_REQUEST_TIMEOUT'],
    ] as const) {
      const result = await runSvc(['orders', 'list', ...args], { env: envOf(server, extra) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(named);
      expect(result.stderr).toContain('86400');
      expect(result.stderr).not.toMatch(/unexpected error|TimeoutOverflowWarning/);
    }
    expect(server.arrivals).toHaveLength(0);
  });
});

describe('every crawl ends', () => {
  it('cursors that cycle a, b, a, b: exit 1 naming the cursor, the JSON array closed', async () => {
    const server = await serve((req, res, n) => {
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
      const next = cursor === 'a' ? 'b' : 'a';
      // A new item on every page, in the list's order (ids descending), so that the cursor,
      // not a repeated item, gives the loop away.
      const data = [{ ...(orders[0] as object), id: `ord_cycle_${String(100 - n).padStart(3, '0')}` }];
      sendJson(res, 200, { object: 'list', data, has_more: true, next_cursor: next });
    });
    const result = await runSvc(['orders', 'list', '--all', '--json'], { env: envOf(server) });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/error: the service returned next_cursor "a", already seen/);
    expect(JSON.parse(result.stdout)).toHaveLength(3);
    expect(server.arrivals).toHaveLength(3);
  });

  it('endless empty pages with has_more: exit 1 after a run of them, nothing on stdout (no item came)', async () => {
    const server = await serve((_req, res, n) =>
      sendJson(res, 200, { object: 'list', data: [], has_more: true, next_cursor: `c${n}` }),
    );
    const result = await runSvc(['orders', 'list', '--all', '--json'], { env: envOf(server) });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/empty pages in a row/);
    expect(result.stdout).toBe('');
    expect(server.arrivals.length).toBeLessThanOrEqual(25);
  });
});

describe('answers and cells have a size cap', () => {
  it('a JSON answer over 64 MB is an error, not a gigabyte of memory', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      res.write('{"data": [');
      let sent = 0;
      const more = () => {
        while (sent < 70) {
          sent++;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end('], "has_more": false}');
      };
      more();
    });
    const result = await runSvc(['orders', 'list'], { env: envOf(server) });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/larger than 64 MB/);
    expect(server.arrivals).toHaveLength(1);
  });
});
