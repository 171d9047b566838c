/**
 * `products upsert --create-unmatched` after a lost answer: a product is never claimed by
 * guess. One product is never claimed for two lines, nor one this run already accounted for;
 * when the read-back cannot tell, the lines are `write_unconfirmed` (exit 3), named, with the
 * way to check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { type DroppingProxy, droppingProxy } from '../../helpers/dropping-proxy.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false });
const proxies: DroppingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

const scratch = () => tempDir('svc-upsert-lost-');
const tee = (sku: string) => ({ title: `Tee ${sku}`, variants: [{ sku, price: '10.00' }] });
const mugs = (emu: RunningEmulator) =>
  [...emu.store.products.values()].filter((product) => product.title === 'Mug').map((product) => product.id);

/** Upserts `items` through a proxy dropping the POST whose body holds `marker`, `when` given. */
async function upsertDropping(
  emu: RunningEmulator,
  items: unknown[],
  marker: string,
  when: 'before' | 'after',
) {
  const proxy = await droppingProxy(emu.url, [
    { method: 'POST', path: '/rest/v1/products/batch', body: (text) => text.includes(marker), when },
  ]);
  proxies.push(proxy);
  const dir = scratch();
  const path = join(dir, 'catalog.jsonl');
  writeFileSync(path, `${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
  const report = join(dir, 'report.csv');
  const result = await runSvc(
    ['products', 'upsert', path, '--create-unmatched', '--json', '--report', report],
    { env: { ...envFor(emu), SVC_BASE_URL: proxy.url } },
  );
  expect(proxy.dropped()).toBe(1);
  const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
  const row = (line: number) => rows.find((candidate) => Number(candidate.line) === line);
  return { result, rows, row };
}

describe('products upsert --create-unmatched after a lost answer', () => {
  it('two lines of one title in two chunks, the second chunk dropped: never one product for both', async () => {
    const emu = await start();
    const items = [
      { title: 'Mug' },
      ...Array.from({ length: 99 }, (_, i) => tee(`FIRST-${i}`)),
      { title: 'Mug' },
      ...Array.from({ length: 20 }, (_, i) => tee(`SECOND-${i}`)),
    ];
    const { result, row } = await upsertDropping(emu, items, 'SECOND-', 'before');
    expect(result.code, result.stderr).toBe(0);
    const first = row(1);
    const second = row(101);
    expect(first).toMatchObject({ status: 'created' });
    expect(second).toMatchObject({ status: 'created' });
    // The dropped chunk created nothing, so line 101 was sent again and made its own product.
    expect(second?.message).not.toBe(first?.message);
    expect(mugs(emu).sort()).toEqual([first?.message, second?.message].sort());
    expect(emu.store.locateSku('SECOND-19')).toBeDefined();
  });

  it('when the read-back cannot tell (another product of that title appeared), the line is write_unconfirmed: exit 3, named, with the check', async () => {
    const emu = await start();
    // Someone else made a "Mug" a moment ago.
    const made = await fetch(`${emu.url}/rest/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Mug' }),
    });
    expect(made.status).toBe(201);
    const items = [tee('ONLY-0'), { title: 'Mug' }];
    const { result, row } = await upsertDropping(emu, items, 'ONLY-0', 'after');
    expect(result.code, result.stderr).toBe(3);
    expect(row(2)).toMatchObject({ status: 'failed', code: 'write_unconfirmed' });
    // The line with a SKU went again safely: the resend matched what the lost request made.
    expect(row(1)).toMatchObject({ status: 'updated' });
    expect(result.stderr).toMatch(/line 2: "Mug": write_unconfirmed: .*cannot tell/);
    expect(result.stderr).toContain('svc products list');
    // Nothing was sent again for it: the service holds the run's Mug and the other one, no third.
    expect(mugs(emu)).toHaveLength(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, failed: 1, updated: 1 });
  });

  it('two lines of one title in one lost chunk that landed: each claims a product of its own', async () => {
    const emu = await start();
    const items = [{ title: 'Mug' }, { title: 'Mug' }, tee('PAIR-0')];
    const { result, row } = await upsertDropping(emu, items, 'PAIR-0', 'after');
    expect(result.code, result.stderr).toBe(0);
    const ids = [row(1)?.message, row(2)?.message];
    expect(new Set(ids).size).toBe(2);
    expect(mugs(emu).sort()).toEqual([...ids].sort());
  });
});
