/**
 * `import { createClient } from 'svc'`: the typed client against the emulator over real HTTP,
 * through the same client, pager and transport the commands use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createClient, type SvcClient, SvcError } from '../../src/index.js';
import { emulator } from '../helpers/emulator.js';

let emu: RunningEmulator;
let configDir: string;
let client: SvcClient;

beforeAll(async () => {
  emu = await emulator();
  configDir = mkdtempSync(join(tmpdir(), 'svc-library-'));
  client = createClient({ apiKey: emu.keys.live, baseUrl: emu.url, env: { SVC_CONFIG_DIR: configDir } });
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
  rmSync(configDir, { recursive: true, force: true });
});

describe('createClient', () => {
  it('lists with for await, first(n), all() and pages() through the shared pager', async () => {
    const awaiting = await client.orders.list({ status: 'awaiting_shipment' }).all();
    expect(awaiting.length).toBeGreaterThan(0);
    expect(awaiting.every((order) => order.status === 'awaiting_shipment')).toBe(true);
    const crawled = [];
    const orders = client.orders.list();
    for await (const order of orders) crawled.push(order);
    expect(crawled.length).toBe(200);
    expect((await orders.all()).map((order) => order.id)).toEqual(crawled.map((order) => order.id));
    const first = await orders.first(3);
    expect(first.map((order) => order.id)).toEqual(crawled.slice(0, 3).map((order) => order.id));
    // first(3) asked one page of 3, not a page of 100.
    expect(emu.requests({ path: '/orders' }).at(-1)?.query).toMatch(/limit=3/);
    const pages = [];
    for await (const page of orders.pages()) pages.push(page.length);
    expect(pages[0]).toBe(100);
    expect(pages.reduce((sum, size) => sum + size, 0)).toBe(crawled.length);
  });

  it('gets one item typed, and writes with an idempotency key of its own or the one given', async () => {
    const [order] = await client.orders.list().first(1);
    expect((await client.orders.get(order.id)).id).toBe(order.id);
    const product = (await client.products.list().first(1))[0];
    const sku = product.variants?.[0]?.sku as string;
    const result = await client.inventory.setBatch([{ sku, quantity: 7 }], { idempotencyKey: 'lib-key-1' });
    expect(result.data[0]?.status).toMatch(/updated|unchanged/);
    await client.inventory.set(sku, { quantity: 8 });
    const keys = emu.idempotencyKeys({ method: 'POST' }).concat(emu.idempotencyKeys({ method: 'PATCH' }));
    expect(keys[0]).toBe('lib-key-1');
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe('lib-key-1');
  });

  it('reads the key and base URL from the environment as svc does, and the public endpoints need none', async () => {
    const fromEnv = createClient({
      env: { SVC_API_KEY: emu.keys.live, SVC_BASE_URL: emu.url, SVC_CONFIG_DIR: configDir },
    });
    try {
      expect((await fromEnv.channels.list()).length).toBeGreaterThan(0);
    } finally {
      await fromEnv.close();
    }
    const keyless = createClient({ baseUrl: emu.url, env: { SVC_CONFIG_DIR: configDir } });
    try {
      expect((await keyless.service.health()).status).toBeDefined();
      const refused = await keyless.orders.get('ord_1').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SvcError);
      expect(refused).toMatchObject({ code: 'api_key_missing', exitCode: 4 });
    } finally {
      await keyless.close();
    }
  });

  it('throws one error class with the service code, status, type, request id and the exit code', async () => {
    const error = await client.orders.get('ord_does_not_exist').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ status: 404, code: 'resource_missing', exitCode: 1 });
    expect((error as SvcError).type).toBeTruthy();
    expect((error as SvcError).requestId).toBeTruthy();
  });

  it('reports a write that may have been applied as such, and does not send it again', async () => {
    const [order] = await client.orders.list({ status: 'awaiting_shipment' }).first(1);
    const path = `/orders/${order.id}/fulfillment`;
    emu.faults.inject({ method: 'POST', path, kind: 'drop_after' });
    const error = await client.orders
      .fulfill(order.id, { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'ambiguous_write', exitCode: 1 });
    expect(emu.requests({ method: 'POST', path })).toHaveLength(1);
  });
});
