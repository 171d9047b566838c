/**
 * Counts and pages that do not fit the contract: a `has_more` that is not a boolean is a
 * service error (never the end of a list), and a per-item status the contract does not name
 * is unconfirmed, never `updated`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeOrder } from '../helpers/broken-pager.js';
import { droppingProxy } from '../helpers/dropping-proxy.js';
import { emulatorPerTest } from '../helpers/emulator.js';
import { ANY_KEY, misbehavingServer, sendJson } from '../helpers/misbehaving-server.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const scratch = () => tempDir('svc-contract-counts-');
const start = emulatorPerTest({ rateLimit: false });
const LIVE_KEY = 'svc_live_misbehaving0000000000';

describe('answers outside the contract', () => {
  for (const hasMore of ['yes', 1, null, 'false']) {
    it(`has_more: ${JSON.stringify(hasMore)} is a service error (exit 1), not the end`, async () => {
      const server = await misbehavingServer((_req, res, n) =>
        sendJson(res, 200, {
          object: 'list',
          data: [fakeOrder(`ord_h${n}`)],
          has_more: hasMore,
          next_cursor: null,
        }),
      );
      try {
        const env = { SVC_BASE_URL: server.url, SVC_API_KEY: ANY_KEY, SVC_CONFIG_DIR: scratch() };
        const result = await runSvc(['orders', 'list', '--all', '--json'], { env });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toMatch(/has_more/);
        expect(JSON.parse(result.stderr.trim().split('\n').at(-1) as string).error.code).toBe('service');
      } finally {
        await server.close();
      }
    });
  }

  it('an unknown per-item status of a batch is unconfirmed, not updated, and exits non-zero', async () => {
    const server = await misbehavingServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const items = (JSON.parse(body || '{"items":[]}').items ?? []) as Array<{ sku: string }>;
        const data = items.map((item, i) => ({
          sku: item.sku,
          status: i === 0 ? 'queued_maybe' : 'updated',
        }));
        sendJson(res, 200, { object: 'inventory_batch', operation_id: null, data });
      });
    });
    try {
      const path = join(scratch(), 'stock.csv');
      writeFileSync(path, 'sku,quantity\nSKU-A,1\nSKU-B,2\n');
      const report = join(scratch(), 'report.csv');
      // A live key: a test key's writes are all simulated, whatever the answer says.
      const env = { SVC_BASE_URL: server.url, SVC_API_KEY: LIVE_KEY, SVC_CONFIG_DIR: scratch() };
      const result = await runSvc(['inventory', 'push', path, '--json', '--report', report], { env });
      expect(result.code, result.stderr).toBe(3);
      expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, updated: 1, failed: 1 });
      expect(result.stderr).toContain('write_unconfirmed');
    } finally {
      await server.close();
    }
  });

  it('products upsert after a lost answer counts every product the read-back found as created', async () => {
    const emu = await start();
    const proxy = await droppingProxy(emu.url, [
      {
        method: 'POST',
        path: '/rest/v1/products/batch',
        body: (text) => text.includes('LOST-TEE-120'),
        when: 'after',
      },
    ]);
    try {
      const path = join(scratch(), 'catalog.jsonl');
      const items = Array.from({ length: 250 }, (_, i) => ({
        title: `Lost tee ${i}`,
        variants: [{ sku: `LOST-TEE-${i}`, price: '10.00' }],
      }));
      writeFileSync(path, `${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
      const env = { SVC_BASE_URL: proxy.url, SVC_API_KEY: emu.keys.live, SVC_CONFIG_DIR: scratch() };
      const result = await runSvc(['products', 'upsert', path, '--create-unmatched'], { env });
      expect(proxy.dropped()).toBe(1);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/\b250 created\b/);
      const made = [...emu.store.products.values()].filter((product) =>
        product.title.startsWith('Lost tee '),
      );
      expect(made).toHaveLength(250);
    } finally {
      await proxy.close();
    }
  });
});
