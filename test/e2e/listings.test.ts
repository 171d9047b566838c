import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

const PHOTO = 'photo_required_for_channel';
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'listings');

/** A JSON call to the emulator with the live key. */
async function api(
  emu: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests poke into arbitrary JSON answers.
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emu.url}/rest/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

function accountOf(emu: RunningEmulator, kind: string): string {
  return [...emu.store.accounts.values()].find((account) => account.channel === kind)?.id as string;
}

describe('listings retry over more than 100 matches', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    // 800 products seed over 100 photo-less products, each refused by the photo channel.
    emu = await emulator({ products: 800, orders: 20, channelDelayMs: 50, bucket: 500, drainPerSecond: 100 });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  const failing = () =>
    [...emu.store.listings.values()].filter(
      (listing) => listing.status === 'error' && listing.issues.some((issue) => issue.code === PHOTO),
    );

  it('collects every page first, resyncs exactly the matches once each with its own key (--include-unfixed), and --wait tells fixed from unfixed', async () => {
    const matches = failing();
    expect(matches.length).toBeGreaterThan(100);
    const fixed = matches.slice(0, 5);
    for (const listing of fixed) {
      const answer = await api(emu, 'PATCH', `/products/${listing.product_id}`, {
        images: [{ url: 'https://images.example.com/fixed.jpg' }],
      });
      expect(answer.status).toBe(200);
    }
    const others = [...emu.store.listings.values()].filter((listing) => !matches.includes(listing));
    const result = await runSvc(
      [
        'listings',
        'retry',
        '--error-code',
        PHOTO,
        '--include-unfixed',
        '--wait',
        '--timeout',
        '60',
        '--json',
      ],
      {
        env: envFor(emu),
        timeoutMs: 60_000,
      },
    );
    expect(result.stderr).toContain(`Found ${matches.length} listings in error with ${PHOTO}`);
    expect(result.code).toBe(3);

    const patches = emu.requests({ route: 'PATCH /listings/{id}' });
    const patched = patches.map((record) => decodeURIComponent(record.path.replace('/listings/', '')));
    expect(patched.length).toBe(matches.length);
    expect(new Set(patched)).toEqual(new Set(matches.map((listing) => listing.id)));
    const keys = emu.idempotencyKeys({ route: 'PATCH /listings/{id}' });
    expect(new Set(keys).size).toBe(matches.length);
    for (const listing of others) expect(patched).not.toContain(listing.id);

    const crawl = emu.requests({ route: 'GET /listings' });
    expect(crawl.length).toBe(Math.ceil(matches.length / 100));
    for (const page of crawl) {
      const query = new URLSearchParams(page.query);
      expect([query.get('status'), query.get('error_code'), query.get('limit')]).toEqual([
        'error',
        PHOTO,
        '100',
      ]);
      expect(page.seq).toBeLessThan(patches[0].seq);
    }

    const report = JSON.parse(result.stdout);
    // The summary holds each listing's final state: listed again, or still failing.
    expect(report).toMatchObject({
      total: matches.length,
      updated: 5,
      failed: matches.length - 5,
      listed: 5,
      still_failing: matches.length - 5,
      still_pending: 0,
    });
    const unresolved = report.unresolved as {
      listing_id: string;
      status: string;
      code: string;
      message: string;
    }[];
    expect(unresolved.length).toBe(matches.length - 5);
    for (const verdict of unresolved) {
      expect(verdict).toMatchObject({ status: 'failing', code: PHOTO });
      expect(verdict.message).toMatch(/photo/);
    }
    const unresolvedIds = new Set(unresolved.map((verdict) => verdict.listing_id));
    for (const listing of fixed) {
      expect(unresolvedIds.has(listing.id)).toBe(false);
      expect(emu.store.listings.get(listing.id)?.status).toBe('listed');
    }
    expect(result.stderr).toContain(`After the resync: 5 listed, ${matches.length - 5} still failing`);
  });

  it('--dry-run lists the matches and writes nothing; no matches exits 0 saying so', async () => {
    const dry = await runSvc(
      ['listings', 'retry', '--error-code', PHOTO, '--channel', 'etsy', '--dry-run', '-o', 'ndjson'],
      { env: envFor(emu) },
    );
    expect(dry.code).toBe(0);
    expect(dry.stdout.trim().split('\n').length).toBe(failing().length);
    expect(dry.stderr).toContain('Nothing was sent');
    // A code svc knows that no listing carries now (an unknown one is a typo: exit 2, see filters).
    const none = await runSvc(['listings', 'retry', '--error-code', 'image_resolution_low'], {
      env: envFor(emu),
    });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No listings in error with image_resolution_low; nothing to retry.');
    expect(emu.requests({ method: 'PATCH' }).length).toBe(0);
  });
});

describe('listing commands', () => {
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
    const product = await api(emu, 'POST', '/products', { title: 'Photo-less mug' });
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

    await api(emu, 'PATCH', `/products/${product.body.id}`, {
      images: [{ url: 'https://images.example.com/mug.jpg' }],
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

  it('delist without --yes and without a terminal refuses (exit 2) and sends nothing; with --yes it delists', async () => {
    const listed = [...emu.store.listings.values()].find((listing) => listing.status === 'listed') as {
      id: string;
    };
    const refused = await runSvc(['listings', 'delist', listed.id], { env: envFor(emu) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`refusing to delist ${listed.id} without confirmation; pass --yes`);
    expect(emu.requests().length).toBe(0);
    const done = await runSvc(
      ['listings', 'delist', listed.id, '--yes', '--wait', '--timeout', '20', '--json'],
      { env: envFor(emu) },
    );
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout).status).toBe('delisted');
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

describe('operations wait', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ orders: 20, channelDelayMs: 60_000, rateLimit: false });
  });
  afterAll(() => emu.close());

  it('exits 8 when the operation is still pending at the timeout', async () => {
    const listed = [...emu.store.listings.values()].find((listing) => listing.status === 'listed') as {
      id: string;
    };
    const resync = await api(emu, 'PATCH', `/listings/${listed.id}`, {});
    const result = await runSvc(['operations', 'wait', resync.body.operation_id, '--timeout', '1'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`${resync.body.operation_id} is still`);
    expect(result.stderr).toContain('again to keep waiting');
  });
});
