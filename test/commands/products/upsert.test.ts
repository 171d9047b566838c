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

describe('products upsert: files as Excel saves them', () => {
  /** A catalog CSV of `rows` (after the header) as bytes: the cells in Windows-1252, `raw` bytes where asked. */
  const catalog = (dir: string, rows: Buffer[]) => {
    const path = join(dir, 'catalog.csv');
    const header = Buffer.from('handle,title,sku,price,\r\n', 'latin1');
    writeFileSync(
      path,
      Buffer.concat([header, ...rows.map((row) => Buffer.concat([row, Buffer.from('\r\n')]))]),
    );
    return path;
  };

  it('reads a Windows-1252 file with ö in the title and in an ignored column, saying so and naming --encoding', async () => {
    const emu = await start();
    const path = catalog(scratch(), [Buffer.from('bj,Björk tee,BJ-1,10.00,Grüße aus Köln', 'latin1')]);
    const env = envFor(emu);
    const dry = await runSvc(['products', 'upsert', path, '--dry-run', '--json'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/Windows-1252.*--encoding/);
    expect(JSON.parse(dry.stdout).first_products[0].title).toBe('Björk tee');
    const live = await runSvc(['products', 'upsert', path], { env });
    expect(live.code, live.stderr).toBe(0);
    expect([...emu.store.products.values()].some((product) => product.title === 'Björk tee')).toBe(true);
  });

  it('bytes that are not text in an ignored column never stop it; in the title they do, naming the line', async () => {
    const emu = await start();
    const env = envFor(emu);
    // 0x81 is no Windows-1252 character: the file is read as UTF-8, and the byte does not decode.
    const stray = (before: string, after: string) =>
      Buffer.concat([Buffer.from(before), Buffer.from([0x81]), Buffer.from(after)]);
    const ignored = catalog(scratch(), [stray('ig,Plain tee,IG-1,10.00,note ', '')]);
    const read = await runSvc(['products', 'upsert', ignored, '--dry-run'], { env });
    expect(read.code, read.stderr).toBe(0);
    const used = catalog(scratch(), [stray('ti,Plain ', 'tee,TI-1,10.00,')]);
    const refused = await runSvc(['products', 'upsert', used, '--dry-run'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0x81)');
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });
});
