/** Filter values are checked before the list is asked for: a typo exits 2 with the closest valid value. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 40, rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe('filter values', () => {
  it('orders list --status awaiting-shipment exits 2 naming awaiting_shipment; nothing is asked for', async () => {
    const result = await runSvc(['orders', 'list', '--status', 'awaiting-shipment'], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--status "awaiting-shipment" is not an order status');
    expect(result.stderr).toContain('did you mean "awaiting_shipment"?');
    expect(result.stderr).toContain('svc api GET /orders -f status=awaiting-shipment');
    expect(result.stdout).toBe('');
    expect(emu.requests({ path: '/orders' })).toEqual([]);
  });

  it('listings list --channel etsyy exits 2 naming etsy, after one read of the channel accounts', async () => {
    const result = await runSvc(['listings', 'list', '--channel', 'etsyy'], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--channel "etsyy"');
    expect(result.stderr).toContain('did you mean "etsy"?');
    expect(emu.requests({ path: '/channel_accounts' })).toHaveLength(1);
    expect(emu.requests({ path: '/listings' })).toEqual([]);
  });

  it('events list --type order.create exits 2 naming order.created', async () => {
    const result = await runSvc(['events', 'list', '--type', 'order.create', '--json'], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('did you mean "order.created"?');
    expect(JSON.parse(result.stderr.split('\n')[0]).error.message).toMatch(/not an event type/);
    expect(emu.requests({ path: '/events' })).toEqual([]);
  });

  it('the same checks hold for operations, listings retry, events replay and webhooks', async () => {
    const env = envFor(emu);
    const cases = [
      ['operations', 'list', '--status', 'done'],
      ['listings', 'list', '--status', 'Error'],
      ['listings', 'retry', '--error-code', 'photo_required_for_channel', '--channel', 'ebey', '--dry-run'],
      [
        'events',
        'replay',
        '--since',
        '1h',
        '--to',
        'http://127.0.0.1:9/',
        '--type',
        'orders.created',
        '--dry-run',
      ],
      ['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--events', 'order.created,order.shipped'],
    ];
    for (const args of cases) {
      const result = await runSvc(args, { env });
      expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/is not (an? .+|the kind of any channel account of this store)/);
    }
    expect(emu.requests().filter((r) => r.path !== '/channel_accounts')).toEqual([]);
  });

  it('valid values still go through, and svc api sends any value', async () => {
    const env = envFor(emu);
    const ok = await runSvc(
      ['orders', 'list', '--status', 'awaiting_shipment', '--channel', 'etsy', '--json'],
      { env },
    );
    expect(ok.code, ok.stderr).toBe(0);
    const raw = await runSvc(['api', 'GET', '/orders', '-f', 'status=awaiting-shipment'], { env });
    expect(raw.code, raw.stderr).toBe(0);
    expect(emu.requests({ path: '/orders' }).length).toBe(2);
  });
});
