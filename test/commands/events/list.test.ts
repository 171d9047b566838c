/** `svc events list`: what an event is about, in the OBJECT column, and the log filtered by type and time. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe('events list', () => {
  it('shows the SKU an inventory.updated event is about in OBJECT', async () => {
    const sku = emu.store.allSkus()[3];
    const set = await runSvc(['inventory', 'set', sku, '--quantity', '11'], { env: envFor(emu) });
    expect(set.code, set.stderr).toBe(0);
    const result = await runSvc(
      ['events', 'list', '--type', 'inventory.updated', '--limit', '1', '-o', 'table'],
      {
        env: { ...envFor(emu), COLUMNS: '200' },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const [header, row] = result.stdout.split('\n');
    const at = header.indexOf('OBJECT');
    expect(at).toBeGreaterThan(0);
    expect(row.slice(at).startsWith(sku)).toBe(true);
  });
});

describe('events list --type and --since', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ orders: 300 });
  });
  afterAll(() => emu.close());

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
});
