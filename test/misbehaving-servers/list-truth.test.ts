/**
 * Lists that tell the truth: a broken page is never taken for the end, a list cut by --limit
 * says so wherever it goes, and a list that fetched nothing prints nothing on stdout.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import {
  type MissingCursor,
  pageClaimingMoreWithoutCursor,
  pagerRepeatingItems,
} from '../helpers/broken-pager.js';
import { emulator } from '../helpers/emulator.js';
import { memoryIO } from '../helpers/memory-io.js';
import { ANY_KEY, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { freshConfigDir } from '../helpers/svc.js';

// The bundle defines it; main() runs here from the sources.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

/** Runs `svc ARGS` in-process, stdout and stderr not terminals. */
async function svc(args: string[], env: Record<string, string>) {
  const io = memoryIO();
  const code = await main(['node', 'svc', ...args], {
    io,
    env: { NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir(), ...env },
  });
  return { code, out: io.out(), err: io.err() };
}

/** The JSON error line of stderr, parsed (where it stands among the lines is tested with the errors). */
function jsonError(err: string): { code: string; exit_code: number; written?: number; message: string } {
  const line = err.split('\n').find((text) => text.startsWith('{"error"'));
  return JSON.parse(line ?? 'null').error;
}

const servers: MisbehavingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serve(start: Promise<MisbehavingServer>): Promise<MisbehavingServer> {
  const server = await start;
  servers.push(server);
  return server;
}
const envOf = (server: MisbehavingServer) => ({ SVC_BASE_URL: server.url, SVC_API_KEY: ANY_KEY });

describe('the pager never takes a broken page for the end', () => {
  for (const missing of ['absent', 'null', 'empty'] as MissingCursor[]) {
    it(`has_more: true with next_cursor ${missing} is a service error (exit 1), the array closed, written said`, async () => {
      const server = await serve(pageClaimingMoreWithoutCursor(missing, 3));
      const result = await svc(['orders', 'list', '--all', '--json'], envOf(server));
      expect(result.code, result.err).toBe(1);
      expect(JSON.parse(result.out)).toHaveLength(3);
      expect(result.err).toMatch(/has_more.*next_cursor/);
      const error = jsonError(result.err);
      expect(error).toMatchObject({ code: 'service', exit_code: 1, written: 3 });
      expect(server.arrivals).toHaveLength(1);
    });
  }

  it('a fresh cursor on every page while the items repeat: exit 1 at the first repeat, not an endless list', async () => {
    const server = await serve(pagerRepeatingItems(2, 2));
    const result = await svc(['orders', 'list', '--all', '-o', 'ndjson'], envOf(server));
    expect(result.code, result.err).toBe(1);
    const ids = result.out
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(['ord_r0_0', 'ord_r0_1', 'ord_r1_0', 'ord_r1_1']);
    expect(result.err).toMatch(/ord_r0_0.*already/);
    expect(jsonError(result.err)).toMatchObject({ code: 'service', written: 4 });
    expect(server.arrivals).toHaveLength(3);
  }, 10_000);

  it('a repeat is caught with --json too, the array closed', async () => {
    const server = await serve(pagerRepeatingItems(2, 1));
    const result = await svc(['orders', 'list', '--all', '--json'], envOf(server));
    expect(result.code, result.err).toBe(1);
    expect(JSON.parse(result.out)).toHaveLength(2);
  }, 10_000);
});

describe('a list cut by --limit says so, wherever it goes', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ orders: 60, rateLimit: false });
  });
  afterAll(() => emu.close());
  const env = () => ({ SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.live });

  for (const format of [['-o', 'csv'], ['-o', 'tsv'], ['--json'], ['-o', 'ndjson'], []]) {
    it(`piped ${format.join(' ') || '(default tsv)'}: 25 of 60 orders, and a line on stderr saying more are held`, async () => {
      const result = await svc(['orders', 'list', ...format], env());
      expect(result.code, result.err).toBe(0);
      expect(result.err).toMatch(/first 25 orders.*--limit N or --all/);
      // The notice is a note, not data: stdout holds only the 25 orders.
      expect(result.out).not.toMatch(/first 25/);
    });
  }

  it('with --query the notice is said too', async () => {
    const result = await svc(['orders', 'list', '--query', 'length(@)'], env());
    expect(result.out.trim()).toBe('25');
    expect(result.err).toMatch(/first 25 orders/);
  });

  it('-q silences it; a list that is whole says nothing', async () => {
    const quiet = await svc(['orders', 'list', '-o', 'csv', '-q'], env());
    expect(quiet.code).toBe(0);
    expect(quiet.err).toBe('');
    const whole = await svc(['orders', 'list', '-o', 'csv', '--limit', '60'], env());
    expect(whole.code).toBe(0);
    expect(whole.err).toBe('');
    const all = await svc(['orders', 'list', '-o', 'csv', '--all'], env());
    expect(all.err).toBe('');
  });

  it('inventory export --limit N (a sample) says the store holds more', async () => {
    const sample = await svc(['inventory', 'export', '--limit', '5'], env());
    expect(sample.code, sample.err).toBe(0);
    expect(sample.err).toMatch(/Only the SKUs of the first 5 products; the store holds more/);
    const whole = await svc(['inventory', 'export'], env());
    expect(whole.err).not.toMatch(/holds more/);
  });

  it('svc api --paginate --limit N says so as well', async () => {
    const result = await svc(['api', 'GET', '/orders', '--paginate', '--limit', '10'], env());
    expect(result.code, result.err).toBe(0);
    expect(JSON.parse(result.out)).toHaveLength(10);
    expect(result.err).toMatch(/first 10 items.*--limit N or --all/);
  });
});

describe('nothing on stdout when nothing was fetched', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ orders: 150, rateLimit: false });
  });
  afterAll(() => emu.close());

  for (const format of [['--json'], ['-o', 'ndjson'], ['-o', 'csv'], ['--query', 'length(@)']]) {
    it(`a refused key with ${format.join(' ')}: exit 4 and stdout empty (no [])`, async () => {
      const result = await svc(['orders', 'list', ...format], {
        SVC_BASE_URL: emu.url,
        SVC_API_KEY: 'svc_live_nope0000000000000000000',
      });
      expect(result.code, result.err).toBe(4);
      expect(result.out).toBe('');
    });
  }

  it('svc api --paginate that fails on its first page prints nothing either', async () => {
    const result = await svc(['api', 'GET', '/orders', '--paginate'], {
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: 'svc_live_nope0000000000000000000',
    });
    expect(result.code).toBe(4);
    expect(result.out).toBe('');
  });

  it('a list that fails midway still closes its array', async () => {
    emu.faults.inject({ method: 'GET', path: '/orders', kind: 'delay', delayMs: 1, times: 1 });
    emu.faults.inject({ method: 'GET', path: '/orders', kind: 'internal_error', times: 1 });
    const result = await svc(['orders', 'list', '--all', '--json', '--max-retries', '0'], {
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
    });
    expect(result.code, result.err).toBe(1);
    expect(JSON.parse(result.out)).toHaveLength(100);
    expect(jsonError(result.err).written).toBe(100);
  });
});
