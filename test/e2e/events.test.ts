import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { independentlyVerified, type Receiver, signedAt, startReceiver } from '../helpers/receiver.js';
import { freshConfigDir, runSvc, SVC_BIN } from '../helpers/svc.js';

const SECRET = 'whsec_e2e_events_0123456789abcdef';

let emu: RunningEmulator;
let receivers: Receiver[] = [];
beforeAll(async () => {
  // A long channel delay keeps operation.completed events out of the listen tests' counts.
  emu = await emulator({ channelDelayMs: 600_000 });
});
beforeEach(() => emu.reset());
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});
afterAll(() => emu.close());

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

function env(): Record<string, string> {
  return { ...envFor(emu), SVC_WEBHOOK_SECRET: SECRET };
}

/** The log's events since `since` (inclusive), oldest first, straight from the API. */
async function logSince(since: string, type?: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ created_after: since, limit: '100', ...(type ? { type } : {}) });
    if (cursor) query.set('cursor', cursor);
    const page = await fetch(`${emu.url}/rest/v1/events?${query}`, {
      headers: { authorization: `Bearer ${emu.keys.live}` },
    }).then(
      (r) =>
        r.json() as Promise<{
          data: Array<Record<string, unknown>>;
          has_more: boolean;
          next_cursor: string | null;
        }>,
    );
    items.push(...page.data);
    cursor = page.has_more ? (page.next_cursor ?? undefined) : undefined;
  } while (cursor);
  return items.reverse();
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Changes a SKU's quantity with the live key over HTTP, so the store emits inventory.updated. */
async function touchInventory(index: number): Promise<void> {
  const sku = emu.store.allSkus()[index];
  const quantity = (emu.store.inventoryBySku(sku)?.quantity ?? 0) + 1;
  const answer = await fetch(`${emu.url}/rest/v1/inventory/${encodeURIComponent(sku)}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
    body: JSON.stringify({ quantity }),
  });
  expect(answer.status).toBe(200);
}

describe('svc events replay', () => {
  it('delivers every event of the window exactly once, oldest first, signed so the receiver verifies it', async () => {
    const hooks = await receiver();
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const expected = await logSince(since);
    expect(expected.length).toBeGreaterThan(5);
    const before = Math.floor(Date.now() / 1000);
    const result = await runSvc(['events', 'replay', '--since', since, '--to', hooks.url], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(hooks.received.map((d) => JSON.parse(d.body).id)).toEqual(expected.map((e) => e.id));
    for (const [index, delivery] of hooks.received.entries()) {
      expect(delivery.body).toBe(JSON.stringify(expected[index]));
      expect(independentlyVerified(SECRET, delivery.signature, delivery.body)).toBe(true);
      expect(signedAt(delivery.signature)).toBeGreaterThanOrEqual(before);
    }
    const createdAt = hooks.received.map((d) => JSON.parse(d.body).created_at as string);
    expect([...createdAt].sort()).toEqual(createdAt);
    expect(result.stderr).toContain(`${expected.length} delivered, 0 failed, 0 skipped`);
  });

  it('interrupted, it says how many were delivered and the command that sends the rest (exit 130)', async () => {
    // The third delivery never gets an answer: the run is stopped while it waits.
    const hooks = await receiver((index) => (index === 2 ? 'hang' : 200));
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const expected = await logSince(since);
    const first = await runSvc(['events', 'replay', '--since', since, '--to', hooks.url], {
      env: env(),
      signalWhen: { signal: 'SIGINT', when: () => hooks.received.length >= 3 },
    });
    expect(first.code, first.stderr).toBe(130);
    const resume =
      /stopped with 2 of (\d+) events delivered; `svc (events replay [^`]+)` sends the rest/.exec(
        first.stderr,
      );
    expect(resume, first.stderr).not.toBeNull();
    expect(Number(resume?.[1])).toBe(expected.length);
    const args = (resume?.[2] ?? '').split(' ');
    expect(args).toContain(expected[2].created_at as string);
    const second = await runSvc(args, { env: env() });
    expect(second.code, second.stderr).toBe(0);
    const delivered = new Set(hooks.received.slice(3).map((d) => JSON.parse(d.body).id));
    for (const event of expected.slice(0, 2)) delivered.add(event.id);
    expect(expected.filter((event) => !delivered.has(event.id))).toEqual([]);
  });

  it('--type narrows the window; --dry-run sends nothing and lists what it would send', async () => {
    const hooks = await receiver();
    const since = new Date(Date.now() - 29 * 86_400_000).toISOString();
    const orders = await logSince(since, 'order.created');
    expect(orders.length).toBeGreaterThan(0);
    const dry = await runSvc(
      [
        'events',
        'replay',
        '--since',
        since,
        '--to',
        hooks.url,
        '--type',
        'order.created',
        '--dry-run',
        '-o',
        'ndjson',
      ],
      { env: envFor(emu) },
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(
      dry.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(orders.map((e) => e.id));
    expect(dry.stderr).toMatch(/nothing was sent/);
    expect(hooks.received).toHaveLength(0);

    const real = await runSvc(
      ['events', 'replay', '--since', since, '--to', hooks.url, '--type', 'order.created'],
      {
        env: env(),
      },
    );
    expect(real.code, real.stderr).toBe(0);
    expect(hooks.received.map((d) => JSON.parse(d.body).type)).toEqual(orders.map(() => 'order.created'));
  });

  it('refuses a --since older than 30 days (exit 2), a missing secret (exit 2), and sends nothing', async () => {
    const hooks = await receiver();
    const old = await runSvc(['events', 'replay', '--since', '31d', '--to', hooks.url], { env: env() });
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/30-day window/);
    const noSecret = await runSvc(['events', 'replay', '--since', '1d', '--to', hooks.url], {
      env: envFor(emu),
    });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/SVC_WEBHOOK_SECRET/);
    expect(hooks.received).toHaveLength(0);
    expect(emu.requests({ path: '/events' })).toHaveLength(0);
  });

  it('a receiver refusing connections gets a clear message, exit 1, and nothing is marked delivered', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hooks`;
    const since = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const result = await runSvc(['events', 'replay', '--since', since, '--to', url, '-o', 'ndjson'], {
      env: env(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/could not connect to http:\/\/127\.0\.0\.1:\d+ \(.*refused/);
    expect(result.stderr).toMatch(/none of the \d+ events could be delivered/);
    const outcomes = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(outcomes.length).toBeGreaterThan(1);
    expect(outcomes.filter((o) => o.status === 'delivered')).toHaveLength(0);
    expect(result.stderr).toMatch(/0 delivered, 1 failed, \d+ skipped/);
  });

  it('exits 3 when the receiver refuses some events, reporting each', async () => {
    const since = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const expected = await logSince(since);
    const refusedId = expected[1].id;
    const picky = await receiver((_index, delivery) =>
      JSON.parse(delivery.body).id === refusedId ? 422 : 200,
    );
    const result = await runSvc(['events', 'replay', '--since', since, '--to', picky.url], { env: env() });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toMatch(new RegExp(`failed\\s+${refusedId}.*HTTP 422`));
    expect(result.stderr).toContain(`${expected.length - 1} delivered, 1 failed, 0 skipped`);
    const delivered = new Set(picky.received.map((d) => JSON.parse(d.body).id));
    expect(delivered.size).toBe(expected.length);
  });
});

/** `svc events listen` as a child process we can signal. */
function startListen(args: string[], extraEnv: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [SVC_BIN, 'events', 'listen', ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir(), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    async until(test: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!test()) {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`timed out waiting for ${what}; stderr: ${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

describe('svc events listen', () => {
  it('forwards events created while it runs, once each (shared timestamps included), and stops on SIGINT with exit 0', async () => {
    const hooks = await receiver();
    const listen = startListen(['--forward-to', hooks.url, '--interval', '0.2'], env());
    await listen.until(() => /Forwarding new events/.test(listen.output().stderr), 'the ready line');

    await touchInventory(0);
    await touchInventory(1);
    await hooks.waitFor(2);
    // Three more in-process events, all sharing the timestamp of one already forwarded.
    const shared = Date.parse(JSON.parse(hooks.received[1].body).created_at);
    for (let n = 0; n < 3; n++) emu.store.emitEvent('product.updated', { id: `prod_shared_${n}` }, shared);
    await hooks.waitFor(5);
    // A few more polls, to show nothing is sent twice.
    const polls = emu.requests({ path: '/events' }).length;
    await listen.until(() => emu.requests({ path: '/events' }).length >= polls + 3, 'more polls');
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);

    const ids = hooks.received.map((d) => JSON.parse(d.body).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(5);
    const fresh = [...emu.store.events.values()].slice(-5).map((e) => e.id);
    expect([...ids].sort()).toEqual([...fresh].sort());
    for (const delivery of hooks.received) {
      expect(independentlyVerified(SECRET, delivery.signature, delivery.body)).toBe(true);
      expect(delivery.body).toBe(JSON.stringify(emu.store.events.get(JSON.parse(delivery.body).id)));
    }
    const { stdout, stderr } = listen.output();
    for (const id of ids) expect(stdout).toMatch(new RegExp(`delivered\\s+${id}.*HTTP 200`));
    expect(stderr).toMatch(/Stopped: 5 forwarded, 0 failed/);
  });

  it('keeps events waiting while the receiver is down and sends them, once, when it comes back', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/hooks`;
    const listen = startListen(['--forward-to', url, '--interval', '0.2'], env());
    await listen.until(() => /Forwarding new events/.test(listen.output().stderr), 'the ready line');
    await touchInventory(2);
    await touchInventory(3);
    // Both wait (the first poll may have seen only one of them).
    await listen.until(() => /2 events waiting/.test(listen.output().stderr), 'the receiver-down warning');
    expect(listen.output().stdout).not.toMatch(/delivered/);

    // The receiver comes up on the same port.
    const { createServer: createHttpServer } = await import('node:http');
    const bodies: string[] = [];
    const server = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        bodies.push(body);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await listen.until(() => bodies.length >= 2, 'the waiting events', 20_000);
      listen.child.kill('SIGTERM');
      expect(await listen.exited).toBe(0);
      const ids = bodies.map((b) => JSON.parse(b).id);
      expect(new Set(ids).size).toBe(2);
      expect(ids).toEqual([...emu.store.events.values()].slice(-2).map((e) => e.id));
      expect(listen.output().stderr).toMatch(/answers again/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('with --since forwards the events from that time on first', async () => {
    const hooks = await receiver();
    const since = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const expected = await logSince(since);
    const listen = startListen(['--forward-to', hooks.url, '--since', since, '--interval', '0.2'], env());
    await hooks.waitFor(expected.length);
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    expect(hooks.received.map((d) => JSON.parse(d.body).id)).toEqual(expected.map((e) => e.id));
  });

  it('refuses an --interval under 0.1 s or beyond a day (exit 2): it would poll without pause', async () => {
    const hooks = await receiver();
    for (const interval of ['0.0001', '3000000']) {
      const result = await runSvc(['events', 'listen', '--forward-to', hooks.url, '--interval', interval], {
        env: env(),
        timeoutMs: 10_000,
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/--interval takes .*0\.1.*86400/);
    }
    expect(emu.requests({ path: '/events' })).toHaveLength(0);
  });
});
