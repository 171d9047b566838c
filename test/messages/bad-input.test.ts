/**
 * Bad input and a failing service, across commands: one line on stderr, the documented exit
 * code, no stack trace; with --json the error is JSON too.
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
