import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock, STATE_FILE, startEmulator } from '../../src/emulator/index.js';
import { call, crawl, get } from '../helpers/service-api.js';
import { tempDir } from '../helpers/temp-dir.js';

const stateDir = () => tempDir('svc-emulator-state-');

describe('the store saved in a state directory', () => {
  it('comes back whole after close: lists, endpoints with their secrets, files, and work still under way ends through the channels', async () => {
    const dir = stateDir();
    const clock = createManualClock();
    const options = { port: 0, clock, stateDir: dir, rateLimit: false, channelDelayMs: 1_000, orders: 300 };
    const first = await startEmulator(options);
    const etsy = [...first.store.accounts.values()].find((account) => account.channel === 'etsy')?.id;
    const product = await call(first, 'POST', '/products', {
      body: { title: 'Saved mug', variants: [{ sku: 'SAVED-1', price: '8.00', quantity: 3 }] },
    });
    const listing = await call(first, 'POST', '/listings', {
      body: { product_id: product.body.id, channel_account_id: etsy },
    });
    const endpoint = await call(first, 'POST', '/webhook_endpoints', {
      body: { url: 'http://127.0.0.1:9/hooks', enabled_events: ['order.created'] },
    });
    await call(first, 'PATCH', '/inventory/SAVED-1', { body: { quantity: 5 }, key: first.keys.test });
    const lists = async (emulator: typeof first) =>
      Promise.all(
        ['/orders', '/listings', '/products', '/operations', '/events', '/webhook_endpoints'].map((path) =>
          crawl(emulator, path),
        ),
      );
    const before = await lists(first);
    const counts = first.store.counts();
    await first.close();
    expect(existsSync(join(dir, STATE_FILE))).toBe(true);

    const second = await startEmulator({ ...options, seed: 99 });
    try {
      expect(second.keys).toEqual(first.keys);
      expect(second.store.counts()).toEqual(counts);
      expect(await lists(second)).toEqual(before);
      expect(second.store.webhookEndpoints.get(endpoint.body.id)?.secret).toBe(endpoint.body.secret);
      expect(second.store.inventoryBySku('SAVED-1')?.quantity).toBe(3);
      // The publish was still pending when the first emulator stopped: it ends as a new one would.
      expect((await get(second, `/listings/${listing.body.id}`)).body.status).toBe('ongoing');
      clock.advance(1_000);
      const ended = (await get(second, `/listings/${listing.body.id}`)).body;
      expect(ended.status).toBe('error');
      expect(ended.issues[0].code).toBe('photo_required_for_channel');
      const completed = await crawl(second, '/events?type=operation.completed');
      expect(completed.map((event) => event.data.object.id)).toContain(listing.body.operation_id);
      // Ids made after the restart are new ones.
      const another = await call(second, 'POST', '/products', { body: { title: 'After restart' } });
      expect(first.store.products.has(another.body.id)).toBe(false);
      expect(before[2].map((p: { id: string }) => p.id)).not.toContain(another.body.id);
    } finally {
      await second.close();
    }
  });

  it('is written while the emulator runs, every interval, once something changed', async () => {
    const dir = stateDir();
    const emulator = await startEmulator({ port: 0, stateDir: dir, stateIntervalMs: 50, orders: 20 });
    try {
      const file = join(dir, STATE_FILE);
      const written = async (text: string) => {
        for (let waited = 0; waited < 10_000; waited += 25) {
          if (existsSync(file) && readFileSync(file, 'utf8').includes(text)) return true;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return false;
      };
      expect(await written(emulator.store.storeId)).toBe(true);
      await call(emulator, 'POST', '/products', {
        body: { title: 'Written while running', variants: [{ sku: 'RUNNING-1', price: '1.00' }] },
      });
      expect(await written('RUNNING-1')).toBe(true);
    } finally {
      await emulator.close();
    }
  });
});
