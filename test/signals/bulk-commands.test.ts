/**
 * SIGINT and SIGTERM during every bulk command: sending stops, in-flight answers land within
 * the grace, what the service confirmed is recorded (the inventory journal, the summary),
 * the summary and the command that resumes are printed, and the exit code is 130 or 143.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestFilter, RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Rate limits off: these tests are about stopping and resuming, not pacing. */
const start = emulatorPerTest({ rateLimit: false });

const scratch = () => tempDir('svc-signal-');
const EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** Every matching write is held 300 ms, well within the 2 s grace, so in-flight ones land. */
function slowWrites(emu: RunningEmulator, method: string, path: string | RegExp): RequestFilter {
  emu.faults.inject({ method, path, kind: 'delay', delayMs: 300, times: 100_000 });
  return { method, path };
}

const answered = (emu: RunningEmulator, filter: RequestFilter) =>
  emu.requests({ ...filter, status: 200 }).length;

describe('a signal during inventory push', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: journals exactly the batches the service answered, prints the summary and the resume command, exits ${EXIT[signal]}`, async () => {
      const emu = await start();
      const skus = emu.store.allSkus().slice(0, 200);
      const path = join(scratch(), 'stock file.csv');
      writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${i % 97}`).join('\n')}\n`);
      const batches = slowWrites(emu, 'POST', '/inventory/batch');
      const env = envFor(emu);
      const first = await runSvc(['inventory', 'push', path, '--batch-size', '10'], {
        env,
        signalWhen: { signal, when: () => emu.requests(batches).length >= 9 },
      });
      expect(first.code, first.stderr).toBe(EXIT[signal]);
      const journals = readdirSync(join(env.SVC_CONFIG_DIR, 'journals')).filter((n) => n.endsWith('.json'));
      expect(journals).toHaveLength(1);
      const journal = JSON.parse(readFileSync(join(env.SVC_CONFIG_DIR, 'journals', journals[0]), 'utf8'));
      const confirmed = journal.confirmed.reduce((n: number, [a, b]: [number, number]) => n + b - a + 1, 0);
      expect(confirmed).toBe(answered(emu, batches));
      expect(confirmed).toBeGreaterThan(0);
      expect(confirmed).toBeLessThan(20);
      expect(first.stderr).toMatch(
        new RegExp(`Pushed ${confirmed * 10} of 200 SKUs .*, ${200 - confirmed * 10} not sent`),
      );
      expect(first.stderr).toContain(
        `stopped with ${confirmed} of 20 batches confirmed; \`svc inventory push '${path}' --batch-size 10 --resume\``,
      );

      const before = emu.requests(batches).length;
      const second = await runSvc(['inventory', 'push', path, '--batch-size', '10', '--resume'], { env });
      expect(second.code, second.stderr).toBe(0);
      expect(emu.requests(batches).length - before).toBe(20 - confirmed);
      expect(skus.filter((sku, i) => emu.store.inventoryBySku(sku)?.quantity !== i % 97)).toEqual([]);
    });
  }
});

describe('a signal during the other bulk commands', () => {
  it('products upsert: the summary counts exactly the answered chunks; it says how to run it again (exit 143)', async () => {
    const emu = await start();
    const path = join(scratch(), 'bulk.jsonl');
    const lines = Array.from({ length: 1200 }, (_, i) =>
      JSON.stringify({ title: `Bulk ${i}`, variants: [{ sku: `SIG-${i}`, price: '5.00' }] }),
    );
    writeFileSync(path, `${lines.join('\n')}\n`);
    const chunks = slowWrites(emu, 'POST', '/products/batch');
    const result = await runSvc(['products', 'upsert', path, '--json'], {
      env: envFor(emu),
      signalWhen: { signal: 'SIGTERM', when: () => emu.requests(chunks).length >= 5 },
    });
    expect(result.code, result.stderr).toBe(143);
    const summary = JSON.parse(result.stdout);
    // Every product of the file is counted: those answered, and those the stop left unsent.
    expect(summary).toMatchObject({ total: 1200, updated: 100 * answered(emu, chunks), failed: 0 });
    expect(summary.not_sent).toBe(1200 - summary.updated);
    expect(summary.updated).toBeLessThan(1200);
    expect(result.stderr).toContain(`\`svc products upsert ${path} --json\` runs it again`);
  });

  it('orders fulfill --file: every answered fulfillment is counted; it says how to run it again (exit 130)', async () => {
    const emu = await start({ orders: 1000 });
    const ready = [...emu.store.orders.values()].filter((o) => o.status === 'awaiting_shipment').slice(0, 16);
    expect(ready.length).toBe(16);
    const path = join(scratch(), 'shipments.csv');
    writeFileSync(
      path,
      `order_id,tracking_number,carrier\n${ready.map((o, i) => `${o.id},1ZSIG${i},UPS`).join('\n')}\n`,
    );
    const posts = slowWrites(emu, 'POST', /^\/orders\/[^/]+\/fulfillment$/);
    const result = await runSvc(['orders', 'fulfill', '--file', path, '--json'], {
      env: envFor(emu),
      signalWhen: { signal: 'SIGINT', when: () => emu.requests(posts).length >= 6 },
    });
    expect(result.code, result.stderr).toBe(130);
    const summary = JSON.parse(result.stdout);
    const shipped = ready.filter((o) => emu.store.orders.get(o.id)?.status !== 'awaiting_shipment').length;
    expect(summary).toMatchObject({ total: 16, updated: answered(emu, posts), failed: 0 });
    expect(summary.updated).toBe(shipped);
    expect(summary.not_sent).toBe(16 - shipped);
    expect(shipped).toBeLessThan(16);
    expect(result.stderr).toContain(`\`svc orders fulfill --file ${path} --json\` runs it again`);
  });

  it('listings publish --file: every answered chunk is counted; it says how to run it again (exit 143)', async () => {
    const emu = await start({ products: 600 });
    const pairs = [...emu.store.accounts.values()]
      .flatMap((account) =>
        [...emu.store.products.keys()]
          .filter(
            (productId) =>
              !emu.store
                .listingsOf(productId)
                .some((l) => l.channel_account_id === account.id && l.status !== 'delisted'),
          )
          .map((productId) => ({ product_id: productId, channel_account_id: account.id })),
      )
      .slice(0, 1200);
    expect(pairs.length).toBe(1200);
    const path = join(scratch(), 'listings.jsonl');
    writeFileSync(path, `${pairs.map((pair) => JSON.stringify(pair)).join('\n')}\n`);
    const chunks = slowWrites(emu, 'POST', '/listings/batch');
    const result = await runSvc(['listings', 'publish', '--file', path, '--json'], {
      env: envFor(emu),
      signalWhen: { signal: 'SIGTERM', when: () => emu.requests(chunks).length >= 5 },
    });
    expect(result.code, result.stderr).toBe(143);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 1200, updated: 100 * answered(emu, chunks), failed: 0 });
    expect(summary.not_sent).toBe(1200 - summary.updated);
    expect(summary.updated).toBeLessThan(1200);
    expect(result.stderr).toContain(`\`svc listings publish --file ${path} --json\` runs it again`);
  });

  it('listings retry: every answered resync is counted; it says how to run it again (exit 130)', async () => {
    const emu = await start({ products: 800, orders: 20, channelDelayMs: 50 });
    const patches = slowWrites(emu, 'PATCH', /^\/listings\/[^/]+$/);
    const code = 'photo_required_for_channel';
    // Every match sent, whatever its cause, so that there is work to stop.
    const result = await runSvc(['listings', 'retry', '--error-code', code, '--include-unfixed', '--json'], {
      env: envFor(emu),
      signalWhen: { signal: 'SIGINT', when: () => emu.requests(patches).length >= 12 },
    });
    expect(result.code, result.stderr).toBe(130);
    const summary = JSON.parse(result.stdout);
    expect(summary.updated).toBe(answered(emu, patches));
    expect(summary.updated).toBeGreaterThan(0);
    expect(summary.not_sent).toBe(summary.total - summary.updated);
    expect(summary.not_sent).toBeGreaterThan(0);
    expect(result.stderr).toContain(
      `\`svc listings retry --error-code ${code} --include-unfixed --json\` runs it again`,
    );
  });
});
