/** `svc events listen`: events forwarded to a receiver as they happen, once each. */
import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../../helpers/loopback-server.js';
import { independentlyVerified } from '../../helpers/receiver.js';
import { freshConfigDir, runSvc, SVC_BIN } from '../../helpers/svc.js';
import {
  emu,
  env,
  logSince,
  receiver,
  SECRET,
  touchInventory,
  useEventsEmulator,
} from './events-emulator.js';

useEventsEmulator();

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
