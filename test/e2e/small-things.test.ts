/**
 * The small things of an operator's day: the channel accounts by their labels (not six shop
 * names called "the store"), what an inventory event is about, what a restarted emulator
 * loaded, and a dry run of one fulfillment.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor, startEmulatorProcess } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

/** The seeded accounts: labels, and the shop names that are not the store's name. */
function accounts() {
  const all = [...emu.store.accounts.values()];
  return {
    labels: all.map((account) => account.label as string),
    shops: all.map((account) => account.shop_name as string),
  };
}

async function loggedIn(): Promise<Record<string, string>> {
  const env = { SVC_CONFIG_DIR: freshConfigDir() };
  const login = await runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url], {
    stdin: emu.keys.live,
    env,
  });
  expect(login.code, login.stderr).toBe(0);
  return env;
}

describe('the channel accounts, by their labels', () => {
  it('auth status names the channel accounts by label, not shop names as "the store"', async () => {
    const { labels, shops } = accounts();
    expect(labels.length).toBeGreaterThan(3);
    const env = await loggedIn();
    const text = await runSvc(['auth', 'status', '-o', 'table'], { env });
    expect(text.code, text.stderr).toBe(0);
    const line = text.stdout.split('\n').find((each) => each.startsWith('accounts')) ?? '';
    expect(line).toContain(`${labels.length} channel accounts`);
    for (const label of labels) expect(line).toContain(label);
    expect(text.stdout).not.toMatch(/^store\b/m);
    for (const shop of shops.filter((name) => !labels.includes(name)))
      expect(text.stdout).not.toContain(shop);
    const json = JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout);
    expect(json.channel_accounts.map((account: { label: string }) => account.label)).toEqual(labels);
    expect(json.channel_accounts[0]).toEqual({
      id: expect.stringMatching(/^chac_/),
      channel: expect.any(String),
      label: labels[0],
    });
  });

  it('profiles list shows the accounts seen at login by label', async () => {
    const { labels } = accounts();
    const env = await loggedIn();
    const table = await runSvc(['profiles', 'list', '-o', 'table'], { env: { ...env, COLUMNS: '400' } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/\bACCOUNTS\b/);
    expect(table.stdout.split('\n')[0]).not.toMatch(/\bSTORE\b/);
    for (const label of labels) expect(table.stdout).toContain(label);
    const json = JSON.parse((await runSvc(['profiles', 'list', '--json'], { env })).stdout);
    expect(json[0].accounts).toEqual(labels);
  });
});

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

describe('svc emulator start --state DIR', () => {
  it('says what it loaded on a restart: products, SKUs, listings, orders…', async () => {
    const dir = tempDir('svc-emulator-loaded-');
    const first = await startEmulatorProcess(['--state', dir, '--orders', '40', '--products', '8']);
    const firstRun = await first.stop('SIGTERM');
    expect(firstRun.stderr).not.toMatch(/Loaded/);
    const second = await startEmulatorProcess(['--state', dir]);
    const { stderr } = await second.stop('SIGTERM');
    expect(stderr).toMatch(
      new RegExp(`Loaded the store from ${dir}: 8 products \\(\\d+ SKUs\\), \\d+ listings, 40 orders`),
    );
  }, 60_000);
});

describe('orders fulfill ID --dry-run', () => {
  it('shows the request it would send and sends nothing, as the file form does', async () => {
    const order = [...emu.store.orders.values()].find((each) => each.status === 'awaiting_shipment');
    expect(order).toBeDefined();
    const id = order?.id as string;
    const args = ['orders', 'fulfill', id, '--tracking-number', '1Z999', '--carrier', 'UPS', '--dry-run'];
    const text = await runSvc([...args, '-o', 'table'], { env: envFor(emu) });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(`Dry run: would send POST /orders/${id}/fulfillment`);
    expect(text.stderr).toContain('Nothing was sent.');
    const json = await runSvc([...args, '--json'], { env: envFor(emu) });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ tracking: { number: '1Z999', carrier: 'UPS' } });
    expect(emu.requests({ method: 'POST' })).toEqual([]);
    expect(emu.store.orders.get(id)?.status).toBe('awaiting_shipment');
  });

  it('still checks the tracking before saying anything would be sent', async () => {
    const result = await runSvc(['orders', 'fulfill', 'ord_123', '--carrier', 'UPS', '--dry-run'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tracking-number is required');
  });
});
