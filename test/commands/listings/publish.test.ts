/**
 * `listings publish --file` reads its file with the care of the other bulk commands; a file of
 * 250 items in 3 requests, refusals in the report, operations wait after a publish, an ambiguous
 * publish looked for before it is repeated, and bad input refused before anything is sent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { call } from '../../helpers/service-api.js';
import { freshConfigDir, runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());

function file(name: string, content: string | Buffer): string {
  const path = join(tempDir('svc-publish-file-'), name);
  writeFileSync(path, content);
  return path;
}

/** A product and an account it is not listed on yet. */
function freePair(): { product_id: string; channel_account_id: string } {
  const accounts = [...emu.store.accounts.values()];
  for (const product of emu.store.products.values()) {
    const listed = new Set(emu.store.listingsOf(product.id).map((listing) => listing.channel_account_id));
    const account = accounts.find((candidate) => !listed.has(candidate.id));
    if (account) return { product_id: product.id, channel_account_id: account.id };
  }
  throw new Error('no free product and account pair in the seed');
}

describe('listings publish --file', () => {
  it('a Latin-1 file is read as Windows-1252 with a notice; --encoding utf-8 refuses it naming the line', async () => {
    const pair = freePair();
    const json = `[\n${JSON.stringify({ ...pair, overrides: { title: 'CAF_' } })}\n]\n`;
    const bytes = Buffer.from(json, 'latin1');
    bytes[bytes.indexOf('CAF_') + 3] = 0xc9;
    const path = file('listings.json', bytes);
    const refused = await runSvc(
      ['listings', 'publish', '--file', path, '--dry-run', '--encoding', 'utf-8'],
      {
        env: envFor(emu),
      },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0xC9)');
    expect(refused.stderr).toContain('--encoding latin1');
    const read = await runSvc(['listings', 'publish', '--file', path, '--dry-run', '--json'], {
      env: envFor(emu),
    });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toMatch(/reads as Windows-1252.*--encoding utf-8/);
    expect(read.stdout).toContain('CAFÉ');
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });

  it('bad items go to --report, every one, and a one-line array names each item', async () => {
    const items = Array.from({ length: 60 }, () => ({ product_id: '', channel_account_id: 'chac_x' }));
    const path = file('listings.json', JSON.stringify(items));
    const report = join(path, '..', 'report.csv');
    const result = await runSvc(['listings', 'publish', '--file', path, '--report', report], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`every bad line is in ${report}`);
    expect(result.stderr).toContain('line 1: item 2: product_id');
    const rows = readFileSync(report, 'utf8').trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(60);
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });
});

const PHOTO = 'photo_required_for_channel';
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'listings');

function accountOf(emu: RunningEmulator, kind: string): string {
  return [...emu.store.accounts.values()].find((account) => account.channel === kind)?.id as string;
}

describe('listings publish', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ products: 300, orders: 20, channelDelayMs: 50, rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  /** `count` product/account pairs with no active listing yet (the storefront, which has no rules, first). */
  function freePairs(count: number): { product_id: string; channel_account_id: string }[] {
    const accounts = [...emu.store.accounts.values()].sort(
      (a, b) => Number(b.channel === 'shopify') - Number(a.channel === 'shopify'),
    );
    const pairs: { product_id: string; channel_account_id: string }[] = [];
    for (const account of accounts) {
      for (const productId of emu.store.products.keys()) {
        const active = emu.store
          .listingsOf(productId)
          .some((l) => l.channel_account_id === account.id && l.status !== 'delisted');
        if (!active) pairs.push({ product_id: productId, channel_account_id: account.id });
        if (pairs.length === count) return pairs;
      }
    }
    return pairs;
  }

  it('publishes a 250-item file in 3 requests, and again as all skipped (already listed)', async () => {
    const pairs = freePairs(250);
    expect(pairs.length).toBe(250);
    const path = join(freshConfigDir(), 'listings.jsonl');
    writeFileSync(path, `${pairs.map((pair) => JSON.stringify(pair)).join('\n')}\n`);
    const report = join(freshConfigDir(), 'report.csv');
    const first = await runSvc(['listings', 'publish', '--file', path, '--json', '--report', report], {
      env: envFor(emu),
    });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ total: 250, updated: 250, failed: 0, requests: 3 });
    expect(emu.requests({ route: 'POST /listings/batch' }).length).toBe(3);
    const created = pairs.filter((pair) =>
      emu.store
        .listingsOf(pair.product_id)
        .some((l) => l.channel_account_id === pair.channel_account_id && l.status !== 'delisted'),
    );
    expect(created.length).toBe(250);

    const again = await runSvc(['listings', 'publish', '--file', path, '--json'], { env: envFor(emu) });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ total: 250, skipped: 250, failed: 0, requests: 3 });
  });

  it('a file with an item the service refuses exits 3 and the report names it', async () => {
    const [pair] = freePairs(1);
    const path = join(freshConfigDir(), 'listings.json');
    writeFileSync(
      path,
      JSON.stringify(
        [pair, { product_id: 'prod_gone', channel_account_id: pair.channel_account_id }],
        null,
        2,
      ),
    );
    const report = join(freshConfigDir(), 'report.csv');
    const result = await runSvc(['listings', 'publish', '--file', path, '--report', report], {
      env: envFor(emu),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('1 listing failed; see');
    const rows = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(rows[0]).toBe('line,key,status,code,message');
    expect(rows[1]).toMatch(new RegExp(`^2,${pair.product_id}@${pair.channel_account_id},created,,list_`));
    expect(rows[2]).toMatch(/^6,prod_gone@.*,failed,resource_missing,/);
  });

  it('a file with bad lines is refused whole, naming each line, and nothing is sent', async () => {
    const result = await runSvc(['listings', 'publish', '--file', join(FIXTURES, 'bad-publish.jsonl')], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('4 bad lines');
    expect(result.stderr).toMatch(/line 2: unknown field overides/);
    expect(result.stderr).toMatch(/line 3: malformed JSON/);
    expect(result.stderr).toMatch(/line 4: product prod_A on chac_A is also on line 1/);
    expect(result.stderr).toMatch(/line 5: product_id is missing/);
    expect(emu.requests().length).toBe(0);
  });

  it('publish, then operations wait reports the per-channel result; a refused listing exits 3', async () => {
    const etsy = accountOf(emu, 'etsy');
    const product = await call(emu, 'POST', '/products', { body: { title: 'Photo-less mug' } });
    const published = await runSvc(
      ['listings', 'publish', '--product', product.body.id, '--channel-account', etsy, '--json'],
      { env: envFor(emu) },
    );
    expect(published.code).toBe(0);
    const listing = JSON.parse(published.stdout);
    expect(listing.status).toBe('ongoing');
    const waited = await runSvc(['operations', 'wait', listing.operation_id, '--timeout', '20', '--json'], {
      env: envFor(emu),
    });
    expect(waited.code).toBe(3);
    const operation = JSON.parse(waited.stdout);
    expect(operation).toMatchObject({ id: listing.operation_id, status: 'failed' });
    expect(operation.results[0]).toMatchObject({
      channel_account_id: etsy,
      listing_id: listing.id,
      status: 'failed',
      error: { code: PHOTO },
    });

    await call(emu, 'PATCH', `/products/${product.body.id}`, {
      body: { images: [{ url: 'https://images.example.com/mug.jpg' }] },
    });
    const resync = await runSvc(['listings', 'resync', listing.id, '--wait', '--timeout', '20'], {
      env: envFor(emu),
    });
    expect(resync.code).toBe(0);
    expect(resync.stdout).toContain('listed');
    expect(emu.store.listings.get(listing.id)?.status).toBe('listed');

    const again = await runSvc(
      ['listings', 'publish', '--product', product.body.id, '--channel-account', etsy],
      { env: envFor(emu) },
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      `Already published: ${product.body.id} is listed on ${etsy} as ${listing.id}`,
    );
  });

  it('after an ambiguous publish it looks for the listing before repeating', async () => {
    const [applied, lost] = freePairs(2);
    emu.faults.inject({ method: 'POST', path: '/listings', kind: 'drop_after' });
    const first = await runSvc(
      [
        'listings',
        'publish',
        '--product',
        applied.product_id,
        '--channel-account',
        applied.channel_account_id,
      ],
      { env: envFor(emu) },
    );
    expect(first.code).toBe(0);
    expect(emu.requests({ route: 'POST /listings' }).length).toBe(1);
    const lookups = emu
      .requests({ route: 'GET /listings' })
      .map((record) => new URLSearchParams(record.query));
    expect(
      lookups.some(
        (query) =>
          query.get('product_id') === applied.product_id &&
          query.get('channel_account_id') === applied.channel_account_id,
      ),
    ).toBe(true);
    expect(
      emu.store
        .listingsOf(applied.product_id)
        .filter((l) => l.channel_account_id === applied.channel_account_id).length,
    ).toBe(1);

    emu.faults.inject({ method: 'POST', path: '/listings', kind: 'drop_before' });
    const second = await runSvc(
      ['listings', 'publish', '--product', lost.product_id, '--channel-account', lost.channel_account_id],
      { env: envFor(emu) },
    );
    expect(second.code).toBe(0);
    expect(emu.requests({ route: 'POST /listings' }).length).toBe(3);
    expect(
      emu.store.listingsOf(lost.product_id).filter((l) => l.channel_account_id === lost.channel_account_id)
        .length,
    ).toBe(1);
  });

  it('bad input: unknown listing id, malformed --override, a channel account not in the list, unknown attribute', async () => {
    const unknown = await runSvc(['listings', 'resync', 'list_doesNotExist'], { env: envFor(emu) });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('HTTP 404 resource_missing: No such listing: list_doesNotExist');
    const notAnId = await runSvc(['listings', 'update', 'prod_123', '--override', 'title=x'], {
      env: envFor(emu),
    });
    expect(notAnId.code).toBe(2);

    const [pair] = freePairs(1);
    const malformed = await runSvc(
      [
        'listings',
        'publish',
        '--product',
        pair.product_id,
        '--channel-account',
        pair.channel_account_id,
        '--override',
        'title',
      ],
      { env: envFor(emu) },
    );
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--override "title" needs the form key=value');
    const stranger = await runSvc(
      ['listings', 'publish', '--product', pair.product_id, '--channel-account', 'chac_notMine'],
      { env: envFor(emu) },
    );
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain('channel account chac_notMine is not in the account list');
    const ebay = accountOf(emu, 'ebay');
    const badAttribute = await runSvc(
      [
        'listings',
        'publish',
        '--product',
        pair.product_id,
        '--channel-account',
        ebay,
        '--attribute',
        'colour=Red',
      ],
      { env: envFor(emu) },
    );
    expect(badAttribute.code).toBe(2);
    expect(badAttribute.stderr).toContain('unknown attribute colour');
    expect(emu.requests({ method: 'POST' }).length).toBe(0);
  });
});
