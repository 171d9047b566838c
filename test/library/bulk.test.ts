/**
 * The library's bulk runs are the CLI's: `client.inventory.push` checks, plans, journals and
 * records as `svc inventory push` does, and resolves with the same ledger (totals and one
 * outcome per item); a stop on the quota throws an SvcError holding the result so far.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../src/emulator/index.js';
import { BulkStopped, createClient, type SvcClient, SvcError } from '../../src/index.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false });

/** A library client of `emu`'s live key, with a config dir of its own; closed when the test ends. */
function clientOf(emu: RunningEmulator, configDir = tempDir('svc-library-')): SvcClient {
  const client = createClient({
    apiKey: emu.keys.live,
    baseUrl: emu.url,
    env: { SVC_CONFIG_DIR: configDir, XDG_STATE_HOME: configDir },
  });
  return client;
}

const batches = (emu: RunningEmulator) =>
  emu.requests({ method: 'POST', path: '/inventory/batch', status: 200 }).length;

describe('client.inventory.push', () => {
  it('pushes three rows and resolves with totals that add up and one outcome per row', async () => {
    const emu = await start();
    const client = clientOf(emu);
    try {
      const [a, b] = emu.store.allSkus();
      const progress: number[] = [];
      const result = await client.inventory.push(
        [
          { sku: a as string, quantity: 7 },
          { sku: b as string, quantity: 8, price: '12.50' },
          { sku: 'NO-SUCH-SKU', quantity: 1 },
        ],
        { onProgress: ({ settled }) => progress.push(settled) },
      );
      expect(emu.store.inventoryBySku(a as string)?.quantity).toBe(7);
      expect(emu.store.inventoryBySku(b as string)?.quantity).toBe(8);
      const { totals, outcomes } = result;
      expect(totals).toMatchObject({ total: 3, updated: 2, failed: 1, requests: 1 });
      const { total, updated, unchanged, failed, skipped, not_sent, simulated } = totals;
      expect(updated + unchanged + failed + skipped + not_sent + simulated).toBe(total);
      expect(outcomes.map((outcome) => [outcome.index, outcome.key, outcome.status])).toEqual([
        [0, a, 'updated'],
        [1, b, 'updated'],
        [2, 'NO-SUCH-SKU', 'failed'],
      ]);
      expect(outcomes[2]?.code).toBeTruthy();
      // Rows given as data came from no file: no line numbers.
      expect(outcomes[0]).not.toHaveProperty('line');
      expect(progress.at(-1)).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('pushes a CSV file, naming each outcome by its line', async () => {
    const emu = await start();
    const client = clientOf(emu);
    try {
      const skus = emu.store.allSkus().slice(0, 3);
      const path = join(tempDir(), 'stock.csv');
      writeFileSync(path, `sku,quantity\n${skus.map((sku) => `${sku},5`).join('\n')}\n`);
      const result = await client.inventory.push(path, { batchSize: 2 });
      expect(result.totals).toMatchObject({ total: 3, updated: 3, requests: 2 });
      expect(result.outcomes.map((outcome) => outcome.line)).toEqual([2, 3, 4]);
      // A bad file is refused whole, before anything is sent.
      writeFileSync(path, `sku,quantity\n${skus[0]},many\n`);
      const refused = await client.inventory.push(path).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SvcError);
      expect(refused).toMatchObject({ exitCode: 2 });
      expect(batches(emu)).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('refuses a push that zeroes too much unless allowZeroing', async () => {
    const emu = await start();
    const client = clientOf(emu);
    try {
      const rows = emu.store
        .allSkus()
        .slice(0, 3)
        .map((sku) => ({ sku, quantity: 0 }));
      for (const { sku } of rows) expect(emu.store.inventoryBySku(sku)?.quantity).toBeGreaterThan(0);
      const refused = await client.inventory
        .push(rows, { changedOnly: true })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SvcError);
      expect(refused).toMatchObject({ exitCode: 2 });
      expect((refused as Error).message).toMatch(/quantity 0.*allowZeroing: true/);
      expect(batches(emu)).toBe(0);
      const allowed = await client.inventory.push(rows, { changedOnly: true, allowZeroing: true });
      expect(allowed.totals).toMatchObject({ total: 3, updated: 3 });
      expect(emu.store.inventoryBySku(rows[0]?.sku as string)?.quantity).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('stops on the write quota with an SvcError holding the result, and a resume sends only the rest', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await start({ writeQuota: 2, clock });
    const configDir = tempDir('svc-library-');
    const client = clientOf(emu, configDir);
    try {
      const rows = emu.store
        .allSkus()
        .slice(0, 4)
        .map((sku, i) => ({ sku, quantity: 40 + i }));
      const stopped = await client.inventory.push(rows, { batchSize: 1 }).catch((error: unknown) => error);
      expect(stopped).toBeInstanceOf(SvcError);
      expect(stopped).toBeInstanceOf(BulkStopped);
      const stop = stopped as BulkStopped;
      expect(stop).toMatchObject({ code: 'write_quota_exceeded', status: 429, exitCode: 5 });
      expect(stop.result.totals).toMatchObject({ total: 4, updated: 2, not_sent: 2 });
      // Batches go out side by side: which two the quota let through depends on arrival order.
      const first = stop.result.outcomes.map((outcome) => outcome.status);
      expect([...first].sort()).toEqual(['not_sent', 'not_sent', 'updated', 'updated']);
      // The next day: the resume sends the two rows the quota stopped, and skips the confirmed ones.
      clock.advance(24 * 3_600_000);
      const before = batches(emu);
      const notes: string[] = [];
      const resumed = await client.inventory.push(rows, {
        batchSize: 1,
        resume: true,
        onNote: (line) => notes.push(line),
      });
      expect(batches(emu) - before).toBe(2);
      expect(notes.join('\n')).toMatch(/Resuming: 2 of 4 batches/);
      expect(resumed.totals).toMatchObject({ total: 4, updated: 2, skipped: 2, requests: 2 });
      expect(resumed.outcomes.map((outcome) => outcome.status)).toEqual(
        first.map((status) => (status === 'updated' ? 'skipped' : 'updated')),
      );
      for (const { sku, quantity } of rows) expect(emu.store.inventoryBySku(sku)?.quantity).toBe(quantity);
    } finally {
      await client.close();
    }
  });
});

describe('client.products.upsertAll', () => {
  it("upserts products given as data with the CLI's check and ledger", async () => {
    const emu = await start();
    const client = clientOf(emu);
    try {
      const products = [1, 2, 3].map((i) => ({
        title: `Library tee ${i}`,
        variants: [{ sku: `LIB-TEE-${i}`, price: '10.00' }],
      }));
      const result = await client.products.upsertAll(products);
      expect(result.totals).toMatchObject({ total: 3, updated: 3, failed: 0, requests: 1 });
      expect(result.outcomes.map((outcome) => [outcome.key, outcome.status])).toEqual([
        ['LIB-TEE-1', 'created'],
        ['LIB-TEE-2', 'created'],
        ['LIB-TEE-3', 'created'],
      ]);
      // Again: matched by SKU, nothing created twice.
      const again = await client.products.upsertAll(products);
      expect(again.outcomes.every((outcome) => outcome.status !== 'created')).toBe(true);
      // A product no SKU can match is refused whole, as the CLI refuses it, unless createUnmatched.
      const refused = await client.products
        .upsertAll([{ title: 'No variants' }])
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ exitCode: 2 });
      expect((refused as Error).message).toMatch(/problem|line|variants/);
    } finally {
      await client.close();
    }
  });
});

describe('client.orders.fulfillAll', () => {
  it("ships orders named by id or channel number, with the CLI's ledger", async () => {
    const emu = await start();
    const client = clientOf(emu);
    try {
      const orders = [...emu.store.orders.values()];
      const awaiting = orders.filter((order) => order.status === 'awaiting_shipment');
      const [byId, byNumber] = awaiting;
      expect(byNumber?.order_id_on_channel).toBeTruthy();
      const result = await client.orders.fulfillAll([
        { orderId: byId?.id as string, carrier: 'UPS', trackingNumber: '1Z-LIB-1' },
        { orderId: byNumber?.order_id_on_channel as string, carrier: 'DHL', trackingNumber: 'LIB-2' },
        { orderId: 'ord_unknown', carrier: 'UPS', trackingNumber: '1Z-LIB-3' },
      ]);
      expect(result.totals).toMatchObject({ total: 3, updated: 2, failed: 1 });
      expect(result.outcomes.map((outcome) => outcome.status)).toEqual(['updated', 'updated', 'failed']);
      expect(emu.store.orders.get(byId?.id as string)?.status).toBe('shipped');
      expect(emu.store.orders.get(byNumber?.id as string)?.status).toBe('shipped');
      // Again: both already shipped with the same tracking, skipped.
      const again = await client.orders.fulfillAll([
        { orderId: byId?.id as string, carrier: 'UPS', trackingNumber: '1Z-LIB-1' },
      ]);
      expect(again.outcomes[0]?.status).toBe('skipped');
    } finally {
      await client.close();
    }
  });
});

describe('client.listings.publishAll', () => {
  it('publishes listings given as data, skipping one already published', async () => {
    const emu = await start();
    const client = clientOf(emu);
    try {
      const [account] = await client.channels.list();
      const listed = new Set(
        (await client.listings.list({ channel_account_id: account?.id }).all()).map(
          (listing) => listing.product_id,
        ),
      );
      const products = await client.products.list().all();
      const fresh = products.filter((product) => !listed.has(product.id)).slice(0, 2);
      const published = products.find((product) => listed.has(product.id));
      expect(fresh).toHaveLength(2);
      const items = [...fresh, published].map((product) => ({
        product_id: product?.id as string,
        channel_account_id: account?.id as string,
      }));
      const result = await client.listings.publishAll(items);
      expect(result.totals.total).toBe(3);
      expect(result.outcomes.map((outcome) => outcome.status)).toEqual(['created', 'created', 'skipped']);
      const unknown = await client.listings
        .publishAll([{ product_id: fresh[0]?.id as string, channel_account_id: 'ch_nope' }])
        .catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(SvcError);
    } finally {
      await client.close();
    }
  });
});

describe('client.listings.retry', () => {
  it('holds back what looks unfixed and resyncs the rest, with totals that add up', async () => {
    const emu = await start();
    const client = clientOf(emu);
    try {
      const code = 'photo_required_for_channel';
      const failing = [...emu.store.listings.values()].filter(
        (listing) => listing.status === 'error' && listing.issues.some((issue) => issue.code === code),
      );
      expect(failing.length).toBeGreaterThan(0);
      const held = await client.listings.retry({ errorCode: code });
      expect(held.totals).toMatchObject({ total: failing.length, unfixed: failing.length, requests: 0 });
      expect(held.outcomes.every((outcome) => outcome.status === 'unfixed')).toBe(true);
      const sent = await client.listings.retry({ errorCode: code, includeUnfixed: true });
      expect(sent.totals).toMatchObject({ total: failing.length, updated: failing.length, unfixed: 0 });
      const { total, updated, unchanged, failed, skipped, not_sent, simulated, unfixed } = sent.totals;
      expect(updated + unchanged + failed + skipped + not_sent + simulated + unfixed).toBe(total);
      expect(emu.requests({ route: 'PATCH /listings/{id}' })).toHaveLength(failing.length);
    } finally {
      await client.close();
    }
  });
});

describe('settings shared with the CLI', () => {
  it("counts the library's writes in the quota count svc reads (one resolution of pacing and the quota dir)", async () => {
    const emu = await start();
    const dir = tempDir('svc-library-');
    const env = {
      SVC_CONFIG_DIR: dir,
      XDG_STATE_HOME: join(dir, 'state'),
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
    };
    const client = createClient({ env });
    try {
      const [sku] = emu.store.allSkus();
      await client.inventory.push([{ sku: sku as string, quantity: 3 }]);
    } finally {
      await client.close();
    }
    const shown = await runSvc(['quota', '--json'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ spent: 1 });
  });
});
