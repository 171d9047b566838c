/**
 * Test mode says so in every output: with a test key, the result of every write says
 * `simulated` in its table and carries `"simulated": true` in its JSON (the service answers a
 * test key's write in the same shape as a live one, so nothing else tells them apart).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { memoryIO } from '../helpers/memory-io.js';

(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 30, rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

async function svc(args: string[], key: 'live' | 'test', stdoutIsTTY = false) {
  const io = memoryIO(stdoutIsTTY);
  const code = await main(['node', 'svc', ...args], { io, env: { ...envFor(emu, key), NO_COLOR: '1' } });
  return { code, out: io.out(), err: io.err() };
}

/** A write of each kind, as a function of the store (ids read fresh after each reset). */
const WRITES: Array<[string, () => string[]]> = [
  [
    'orders fulfill',
    () => {
      const order = [...emu.store.orders.values()].find((o) => o.status === 'awaiting_shipment');
      return ['orders', 'fulfill', order?.id ?? '', '--tracking-number', '1Z9', '--carrier', 'UPS'];
    },
  ],
  [
    'products update',
    () => ['products', 'update', [...emu.store.products.keys()][0], '--set', 'title=Renamed'],
  ],
  ['inventory set', () => ['inventory', 'set', emu.store.allSkus()[0], '--quantity', '7']],
  ['webhooks create', () => ['webhooks', 'create', '--url', 'https://example.com/hook']],
];

describe('a write with a test key', () => {
  for (const [name, argsOf] of WRITES) {
    it(`${name}: "simulated" in its table (terminal or pipe) and in its JSON`, async () => {
      for (const [format, tty] of [
        [[], true],
        [[], false],
        [['-o', 'table'], false],
        [['-o', 'csv'], false],
      ] as const) {
        emu.reset();
        const result = await svc([...argsOf(), ...format], 'test', tty);
        expect(result.code, result.err).toBe(0);
        expect(result.out, `${format.join(' ')} tty=${tty}`).toMatch(/simulated/i);
      }
      for (const format of [['--json'], ['-o', 'ndjson']]) {
        emu.reset();
        const result = await svc([...argsOf(), ...format], 'test');
        expect(result.code, result.err).toBe(0);
        expect(JSON.parse(result.out).simulated, format.join(' ')).toBe(true);
      }
    });
  }

  it('a live key says nothing of the kind', async () => {
    for (const [name, argsOf] of WRITES) {
      emu.reset();
      const json = await svc([...argsOf(), '--json'], 'live');
      expect(json.code, json.err).toBe(0);
      expect(JSON.parse(json.out).simulated, name).toBeUndefined();
      emu.reset();
      const text = await svc(argsOf(), 'live', true);
      expect(text.out, name).not.toMatch(/simulated/i);
    }
  });

  it('a read with a test key is not marked', async () => {
    const order = [...emu.store.orders.values()][0];
    const result = await svc(['orders', 'get', order.id, '--json'], 'test');
    expect(JSON.parse(result.out).simulated).toBeUndefined();
  });
});
