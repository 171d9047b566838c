/**
 * Errors for scripts, exactly once: with a machine format the JSON error is the last line of
 * stderr and holds no newline; usage errors point to the help of the command at hand; `--jq`
 * points to `--query`; and `--query` means one thing everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from '../helpers/emulator.js';
import { memoryIO } from '../helpers/memory-io.js';
import { freshConfigDir } from '../helpers/svc.js';

// The bundle defines it; main() runs here from the sources.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 30, rateLimit: false });
});
afterAll(() => emu.close());

async function svc(args: string[], env: Record<string, string> = {}) {
  const io = memoryIO();
  const code = await main(['node', 'svc', ...args], {
    io,
    env: {
      NO_COLOR: '1',
      SVC_CONFIG_DIR: freshConfigDir(),
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
      ...env,
    },
  });
  return { code, out: io.out(), err: io.err() };
}

/** The JSON error as a script reads it: the last line of stderr, the only JSON line there. */
function scriptError(err: string): { code: string; message: string; exit_code: number } {
  const lines = err.trimEnd().split('\n');
  expect(
    lines.filter((line) => line.startsWith('{')),
    err,
  ).toHaveLength(1);
  const parsed = JSON.parse(lines.at(-1) ?? '') as {
    error: { code: string; message: string; exit_code: number };
  };
  return parsed.error;
}

describe('with a machine format, the JSON error is the last line of stderr, once, on one line', () => {
  it('a mistyped flag: the suggestion in the same line, no newline in the message', async () => {
    const result = await svc(['orders', 'list', '--stauts', 'shipped', '--json']);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    const error = scriptError(result.err);
    expect(error).toMatchObject({ code: 'usage', exit_code: 2 });
    expect(error.message).toMatch(/unknown option '--stauts'.*Did you mean --status\?/);
    expect(error.message).not.toMatch(/\n/);
  });

  for (const format of [['--json'], ['-o', 'csv'], ['-o', 'ndjson']]) {
    it(`a service refusal with ${format.join(' ')}: the human line first, the JSON last`, async () => {
      const result = await svc(['orders', 'get', 'ord_nope', ...format]);
      expect(result.code).toBe(1);
      expect(scriptError(result.err)).toMatchObject({ code: 'not_found', exit_code: 1 });
      expect(result.err.split('\n')[0]).toMatch(/^error: HTTP 404/);
    });
  }

  it('an input file with bad lines: the details come before the JSON line', async () => {
    const result = await svc(['inventory', 'push', '/nonexistent/stock.csv', '--json']);
    expect(result.code).toBe(2);
    expect(scriptError(result.err).exit_code).toBe(2);
  });
});

describe('usage errors point to the help of the command at hand', () => {
  it('an unknown flag of inventory push: see svc inventory push --help', async () => {
    const result = await svc(['inventory', 'push', 'stock.csv', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.err.trim()).toMatch(/unknown option '--bogus'; see svc inventory push --help$/);
  });

  it('a missing argument, and a mistyped verb (the noun: see svc orders --help)', async () => {
    const missing = await svc(['inventory', 'push']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/see svc inventory push --help/);
    const verb = await svc(['orders', 'lsit']);
    expect(verb.code).toBe(2);
    expect(verb.err).toMatch(/see svc orders --help/);
    expect(verb.err).not.toMatch(/see svc --help/);
  });

  it('a bad global flag on a command points to that command, whose help lists it', async () => {
    const result = await svc(['orders', '--limit', 'abc', 'list']);
    expect(result.code).toBe(2);
    expect(result.err.trim()).toMatch(/'abc' is invalid.*; see svc orders list --help$/);
  });

  it('the same pointer in the JSON error', async () => {
    const result = await svc(['inventory', 'push', 'stock.csv', '--bogus', '-o', 'json']);
    expect(scriptError(result.err).message).toMatch(/see svc inventory push --help/);
  });
});

describe('--jq is refused with a pointer to --query', () => {
  for (const args of [
    ['orders', 'list', '--jq', '.[].id'],
    ['orders', 'list', '--jq=.[].id', '--json'],
    ['api', 'GET', '/orders', '--jq', '.data'],
  ]) {
    it(`svc ${args.join(' ')}: exit 2, nothing sent`, async () => {
      const before = emu.requests({ path: '/orders' }).length;
      const result = await svc(args);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/--jq.*--query/);
      expect(result.err).toMatch(/JMESPath/);
      expect(emu.requests({ path: '/orders' }).length).toBe(before);
    });
  }
});

describe('channels categories: --search sends the search, --query is JMESPath as everywhere', () => {
  it('--search TEXT is the category search, sent to the service', async () => {
    const account = [...emu.store.accounts.keys()][0];
    const result = await svc(['channels', 'categories', account, '--search', 'shoe', '--json']);
    expect(result.code, result.err).toBe(0);
    const sent = emu.requests({ path: `/channel_accounts/${account}/categories` }).at(-1);
    expect(sent?.query).toMatch(/(^|[?&])query=shoe(&|$)/);
    expect(Array.isArray(JSON.parse(result.out))).toBe(true);
  });

  it('its help offers --search for the words, and --query only as the global JMESPath', async () => {
    const help = await svc(['channels', 'categories', '--help']);
    expect(help.out).toMatch(/--search <text>\s+words in the category name/);
    expect(help.out).not.toMatch(/--query <text>/);
    expect(help.out).toMatch(/--query <expr>\s+JMESPath/);
  });

  it('--query over the categories is the JMESPath of the global option', async () => {
    const account = [...emu.store.accounts.keys()][0];
    const result = await svc(['channels', 'categories', account, '--query', 'length(@)']);
    expect(result.code, result.err).toBe(0);
    expect(Number(result.out.trim())).toBeGreaterThan(0);
  });
});
