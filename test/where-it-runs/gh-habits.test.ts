/**
 * The habits of gh and kubectl land softly: `--json FIELDS` points at `--fields FIELDS --json`,
 * `view` and `show` at `get`, `-L N` is `--limit N`, `ls` is `list`, and commander's sentences
 * carry no stray period before svc's "; see …".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());

describe('gh habits', () => {
  it('--json id,status is refused pointing at --fields id,status --json, nothing sent', async () => {
    for (const args of [
      ['orders', 'list', '--json', 'id,status'],
      ['orders', 'list', '--json', 'id'],
      ['orders', 'list', '--json=id,status'],
      ['orders', 'fulfill', '--json', 'id,status'],
    ]) {
      const result = await runSvc(args, { env: envFor(emu) });
      expect(result.code, args.join(' ')).toBe(2);
      const field = args.at(-1)?.replace('--json=', '');
      expect(result.stderr).toContain(`svc's --json takes no field list: use --fields ${field} --json`);
      expect(result.stderr).not.toContain('too many arguments');
    }
    expect(emu.requests()).toHaveLength(0);
  });

  it('an id after --json is still an id', async () => {
    const order = [...emu.store.orders.values()][0];
    const result = await runSvc(['orders', 'get', '--json', order?.id ?? ''], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe(order?.id);
  });

  it('view and show suggest get', async () => {
    for (const verb of ['view', 'show']) {
      const result = await runSvc(['orders', verb, 'ord_1'], { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`unknown command '${verb}': svc shows one item with get`));
    }
  });

  it('-L N is --limit N, and ls is list', async () => {
    const result = await runSvc(['orders', 'ls', '-L', '2', '--fields', 'id'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(result.stderr).toMatch(/Showing the first 2/);
  });

  it("commander's messages carry no '.;'", async () => {
    for (const args of [
      ['orders', 'list', 'extra'],
      ['orders', 'list', '-o', 'xml'],
      ['orders', 'list', '--limit', 'x'],
    ]) {
      const result = await runSvc(args, { env: envFor(emu) });
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/\.;/);
      expect(result.stderr).toMatch(/; see svc orders list --help/);
    }
  });
});
