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
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error.message).toMatch(
      /not an event type/,
    );
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

describe('filter values a script can get wrong', () => {
  it('an empty id filter exits 2 instead of listing (or retrying) everything; nothing is asked for', async () => {
    const env = envFor(emu);
    const cases = [
      ['listings', 'list', '--product', ''],
      ['listings', 'list', '--channel-account', ' '],
      ['listings', 'list', '--error-code', ''],
      ['orders', 'list', '--channel-account', ''],
      [
        'listings',
        'retry',
        '--error-code',
        'photo_required_for_channel',
        '--channel-account',
        '',
        '--dry-run',
      ],
    ];
    for (const args of cases) {
      const result = await runSvc(args, { env });
      expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/--[a-z-]+ needs a value: an empty one would match every/);
      expect(result.stdout).toBe('');
    }
    expect(emu.requests()).toEqual([]);
  });

  it('--error-code that no listing carries and svc does not know exits 2 naming the closest known code', async () => {
    const env = envFor(emu);
    for (const args of [
      ['listings', 'list', '--error-code', 'photo_requird'],
      ['listings', 'retry', '--error-code', 'photo_requird', '--dry-run'],
    ]) {
      const result = await runSvc(args, { env });
      expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(2);
      expect(result.stderr).toContain('--error-code "photo_requird"');
      expect(result.stderr).toContain('did you mean "photo_required_for_channel"?');
      expect(result.stdout).toBe('');
    }
    // One probe each (a read), never the list itself.
    const probes = emu.requests({ path: '/listings' }).map((r) => new URLSearchParams(r.query));
    expect(probes.map((query) => [query.get('error_code'), query.get('limit')])).toEqual([
      ['photo_requird', '1'],
      ['photo_requird', '1'],
    ]);
  });

  it('a code svc does not know passes when the store has listings with it (the service names new codes)', async () => {
    const failing = [...emu.store.listings.values()].find((listing) => listing.status === 'error');
    if (!failing || failing.issues.length === 0) throw new Error('the seed has no listing in error');
    const [first, ...rest] = failing.issues;
    emu.store.putListing({ ...failing, issues: [{ ...first, code: 'brand_new_channel_rule' }, ...rest] });
    const result = await runSvc(['listings', 'list', '--error-code', 'brand_new_channel_rule', '--json'], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).map((listing: { id: string }) => listing.id)).toContain(failing?.id);
  });

  it('--channel-account not in the account list exits 2 on list commands too, naming the known accounts', async () => {
    const env = envFor(emu);
    for (const noun of ['listings', 'orders']) {
      const result = await runSvc([noun, 'list', '--channel-account', 'chac_nope'], { env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('channel account chac_nope is not in the account list');
      expect(result.stderr).toMatch(/known accounts: chac_/);
      expect(result.stderr).toContain(
        `svc api GET /${noun} -f channel_account_id=chac_nope\` sends any value`,
      );
    }
    expect(emu.requests().filter((r) => r.path !== '/channel_accounts')).toEqual([]);
  });
});
