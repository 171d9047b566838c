import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Listing, Operation } from '../../src/contract/schemas/index.js';
import { call, crawl, get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

const DELAY_MS = 1_000;

describe('listing writes and the channel simulation', () => {
  let t: TestEmulator;
  const accountOf = (kind: string): string =>
    [...t.emulator.store.accounts.values()].find((account) => account.channel === kind)?.id as string;
  const post = (path: string, body: unknown, key?: string) => call(t.emulator, 'POST', path, { body, key });
  const patch = (path: string, body: unknown, key?: string) => call(t.emulator, 'PATCH', path, { body, key });
  let bareProducts = 0;
  /** A new product with no images, no brand and a variant without barcode. */
  const bareProduct = async (title = 'Plain stoneware mug') => {
    // A counter, not the time: two products made within one millisecond need two SKUs.
    const answer = await post('/products', {
      title,
      variants: [{ sku: `BARE-${++bareProducts}`, price: '9.00' }],
    });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  };
  const settle = async (ms = DELAY_MS) => {
    t.clock.advance(ms);
    await get(t.emulator, '/health', null);
  };

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, channelDelayMs: DELAY_MS });
  });
  beforeEach(() => t.emulator.reset());
  afterAll(() => t.emulator.close());

  it('photo channel: no image ends error with photo_required_for_channel; image + resync ends listed; operations and events agree', async () => {
    const productId = await bareProduct();
    const etsy = accountOf('etsy');
    const created = await post('/listings', { product_id: productId, channel_account_id: etsy });
    expect(created.status).toBe(201);
    const listing = Listing.parse(created.body);
    expect(listing).toMatchObject({
      status: 'ongoing',
      product_id: productId,
      channel_account_id: etsy,
      channel: 'etsy',
    });
    const firstOp = listing.operation_id as string;
    expect(firstOp).toMatch(/^op_/);
    expect((await get(t.emulator, `/operations/${firstOp}`)).body.status).toBe('pending');
    await settle(DELAY_MS / 2);
    expect((await get(t.emulator, `/operations/${firstOp}`)).body.status).toBe('processing');
    await settle(DELAY_MS / 2);

    const failed = Operation.parse((await get(t.emulator, `/operations/${firstOp}`)).body);
    expect(failed.status).toBe('failed');
    expect(failed.results?.[0]).toMatchObject({
      listing_id: listing.id,
      status: 'failed',
      error: { code: 'photo_required_for_channel' },
    });
    const inError = (await get(t.emulator, `/listings/${listing.id}`)).body;
    expect(inError.status).toBe('error');
    expect(inError.issues.map((issue: { code: string }) => issue.code)).toEqual([
      'photo_required_for_channel',
    ]);
    expect(inError.issues[0].message).toMatch(/photo/);
    const filtered = await crawl(t.emulator, '/listings?status=error&error_code=photo_required_for_channel');
    expect(filtered.map((item) => item.id)).toContain(listing.id);

    const again = await post('/listings', { product_id: productId, channel_account_id: etsy });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('listing_exists');
    expect(again.body.error.message).toContain(listing.id);

    await settle(10);
    const fixed = await patch(`/products/${productId}`, {
      images: [{ url: 'https://images.example.com/mug.jpg' }],
    });
    expect(fixed.status).toBe(200);
    const resync = await patch(`/listings/${listing.id}`, {});
    expect(resync.status).toBe(200);
    expect(resync.body.status).toBe('ongoing');
    const secondOp = resync.body.operation_id as string;
    expect(secondOp).not.toBe(firstOp);
    await settle();

    const listed = (await get(t.emulator, `/listings/${listing.id}`)).body;
    expect(listed).toMatchObject({ status: 'listed', issues: [], operation_id: secondOp });
    expect(listed.id_on_channel).toBeTruthy();
    expect(listed.url_on_channel).toMatch(/^https:\/\/www\.etsy\.com\/listing\//);
    const succeeded = (await get(t.emulator, `/operations/${secondOp}`)).body;
    expect(succeeded).toMatchObject({
      status: 'succeeded',
      results: [{ listing_id: listing.id, status: 'succeeded', error: null }],
    });

    const changes = (await crawl(t.emulator, '/events?type=listing.status_changed'))
      .filter((event) => event.data.object.id === listing.id)
      .reverse()
      .map((event) => event.data.object.status);
    expect(changes).toEqual(['ongoing', 'error', 'ongoing', 'listed']);
    const completions = (await crawl(t.emulator, '/events?type=operation.completed'))
      .filter((event) => [firstOp, secondOp].includes(event.data.object.id))
      .reverse()
      .map((event) => [event.data.object.status, event.data.object.results[0].error?.code ?? null]);
    expect(completions).toEqual([
      ['failed', 'photo_required_for_channel'],
      ['succeeded', null],
    ]);
  });

  it('a resync whose cause remains fails again with the same issue', async () => {
    const seeded = [...t.emulator.store.listings.values()].find(
      (listing) =>
        listing.status === 'error' &&
        listing.issues.some((issue) => issue.code === 'photo_required_for_channel'),
    );
    expect(seeded).toBeDefined();
    const resync = await patch(`/listings/${seeded?.id}`, {});
    expect(resync.body.status).toBe('ongoing');
    await settle();
    const after = (await get(t.emulator, `/listings/${seeded?.id}`)).body;
    expect(after.status).toBe('error');
    expect(after.issues.map((issue: { code: string }) => issue.code)).toEqual(['photo_required_for_channel']);
    expect(
      (await get(t.emulator, `/operations/${resync.body.operation_id}`)).body.results[0].error.code,
    ).toBe('photo_required_for_channel');
  });

  it('amazon needs brand and barcode (named in attribute_names); attributes fix it', async () => {
    const productId = await bareProduct('Unbranded enamel camping mug');
    const created = await post('/listings', {
      product_id: productId,
      channel_account_id: accountOf('amazon'),
    });
    await settle();
    const failed = (await get(t.emulator, `/listings/${created.body.id}`)).body;
    expect(failed.status).toBe('error');
    expect(failed.issues).toEqual([
      expect.objectContaining({
        code: 'missing_required_attribute',
        severity: 'error',
        attribute_names: ['brand', 'barcode'],
      }),
    ]);
    const update = await patch(`/listings/${created.body.id}`, {
      attributes: { brand: 'Northwind', barcode: '012345678905' },
    });
    expect(update.body.attributes).toMatchObject({ brand: 'Northwind', barcode: '012345678905' });
    await settle();
    expect((await get(t.emulator, `/listings/${created.body.id}`)).body.status).toBe('listed');
  });

  it('walmart limits titles; a shorter title override fixes it', async () => {
    const productId = await bareProduct(`Heavy duty ${'extra long '.repeat(8)}title`);
    const created = await post('/listings', {
      product_id: productId,
      channel_account_id: accountOf('walmart'),
    });
    await settle();
    const failed = (await get(t.emulator, `/listings/${created.body.id}`)).body;
    expect(failed.issues[0]).toMatchObject({ code: 'title_too_long', attribute_names: ['title'] });
    await patch(`/listings/${created.body.id}`, { overrides: { title: 'Heavy duty mug' } });
    await settle();
    expect((await get(t.emulator, `/listings/${created.body.id}`)).body.status).toBe('listed');
  });

  it('a chosen category brings its schema: non-leaf is category_invalid, a leaf asks for its required attributes', async () => {
    const ebay = accountOf('ebay');
    const categories = await crawl(t.emulator, `/channel_accounts/${ebay}/categories`);
    const parent = categories.find((category) => category.path === 'Clothing');
    const leaf = categories.find((category) => category.path === 'Clothing > Men > T-Shirts');
    const productId = await bareProduct('Branded tee');
    const created = await post('/listings', {
      product_id: productId,
      channel_account_id: ebay,
      overrides: { category_id: parent.id },
      attributes: { brand: 'Acme', barcode: '0001' },
    });
    await settle();
    expect((await get(t.emulator, `/listings/${created.body.id}`)).body.issues[0].code).toBe(
      'category_invalid',
    );
    await patch(`/listings/${created.body.id}`, { overrides: { category_id: leaf.id } });
    await settle();
    const missing = (await get(t.emulator, `/listings/${created.body.id}`)).body.issues[0];
    expect(missing.code).toBe('missing_required_attribute');
    expect(missing.attribute_names).toEqual(['condition', 'size']);
    await patch(`/listings/${created.body.id}`, { attributes: { condition: 'New', size: 'M' } });
    await settle();
    expect((await get(t.emulator, `/listings/${created.body.id}`)).body.status).toBe('listed');
  });

  it("without a chosen category the product's own category brings its schema; variant options count as attributes", async () => {
    const ebay = accountOf('ebay');
    const variants = ['S', 'M'].map((size) => ({
      sku: `CAT-TEE-${size}-${++bareProducts}`,
      price: '12.00',
      barcode: `00012345678${size === 'S' ? 1 : 2}`,
      options: { Size: size },
    }));
    const product = await post('/products', {
      title: 'Category tee',
      brand: 'Acme',
      category: 'Clothing > Men > T-Shirts',
      variants,
    });
    expect(product.status).toBe(201);
    const created = await post('/listings', { product_id: product.body.id, channel_account_id: ebay });
    await settle();
    const missing = (await get(t.emulator, `/listings/${created.body.id}`)).body;
    expect(missing.status).toBe('error');
    expect(missing.issues).toEqual([
      expect.objectContaining({ code: 'missing_required_attribute', attribute_names: ['condition'] }),
    ]);
    await patch(`/listings/${created.body.id}`, { attributes: { condition: 'Mint' } });
    await settle();
    expect((await get(t.emulator, `/listings/${created.body.id}`)).body.issues[0]).toMatchObject({
      code: 'attribute_value_invalid',
      attribute_names: ['condition'],
    });
    await patch(`/listings/${created.body.id}`, { attributes: { condition: 'New' } });
    await settle();
    expect((await get(t.emulator, `/listings/${created.body.id}`)).body.status).toBe('listed');
    // A kind without a taxonomy, or a category the channel does not know, asks for nothing more.
    const shopify = await post('/listings', {
      product_id: product.body.id,
      channel_account_id: accountOf('shopify'),
    });
    const unknown = await post('/products', {
      title: 'Odd thing',
      brand: 'Acme',
      category: 'Curiosities > Odd Things',
      variants: [{ sku: `ODD-${++bareProducts}`, price: '3.00', barcode: '000123456789' }],
    });
    const odd = await post('/listings', { product_id: unknown.body.id, channel_account_id: ebay });
    await settle();
    expect((await get(t.emulator, `/listings/${shopify.body.id}`)).body.status).toBe('listed');
    expect((await get(t.emulator, `/listings/${odd.body.id}`)).body.status).toBe('listed');
  });

  it('every seeded listing resyncs to what it shows: a failing one fails again with the same codes, a listed one goes live again', async () => {
    const seeded = [...t.emulator.store.listings.values()].filter(
      (listing) => listing.status === 'error' || listing.status === 'listed',
    );
    const shown = new Map(
      seeded.map((listing) => [
        listing.id,
        { status: listing.status, codes: listing.issues.map((i) => i.code) },
      ]),
    );
    expect([...shown.values()].filter((listing) => listing.status === 'error').length).toBeGreaterThan(5);
    for (const listing of seeded) expect((await patch(`/listings/${listing.id}`, {})).status).toBe(200);
    await settle();
    for (const [id, before] of shown) {
      const after = (await get(t.emulator, `/listings/${id}`)).body;
      expect({ id, status: after.status, codes: after.issues.map((i: { code: string }) => i.code) }).toEqual({
        id,
        ...before,
      });
    }
  });

  it('delist goes ongoing then delisted; a delisted listing refuses updates and the product can be published again', async () => {
    const listed = [...t.emulator.store.listings.values()].find((listing) => listing.status === 'listed') as {
      id: string;
      product_id: string;
      channel_account_id: string;
    };
    const answer = await call(t.emulator, 'DELETE', `/listings/${listed.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('ongoing');
    await settle();
    expect((await get(t.emulator, `/listings/${listed.id}`)).body.status).toBe('delisted');
    expect((await get(t.emulator, `/operations/${answer.body.operation_id}`)).body).toMatchObject({
      type: 'listing.delist',
      status: 'succeeded',
    });
    const refused = await patch(`/listings/${listed.id}`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_state');
    const republished = await post('/listings', {
      product_id: listed.product_id,
      channel_account_id: listed.channel_account_id,
    });
    expect(republished.status).toBe(201);
    expect(republished.body.id).not.toBe(listed.id);
  });

  it('batch: per-item outcomes, over 100 items is batch_too_large, a malformed item rejects the whole batch', async () => {
    const a = await bareProduct('Batch item A');
    const b = await bareProduct('Batch item B');
    const shopify = accountOf('shopify');
    const answer = await post('/listings/batch', {
      items: [
        { product_id: a, channel_account_id: shopify },
        { product_id: 'prod_nope', channel_account_id: shopify },
        { product_id: a, channel_account_id: shopify },
        { product_id: b, channel_account_id: 'chac_nope' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('batch_result');
    expect(
      answer.body.data.map((item: { status: string; error?: { code: string } }) => [
        item.status,
        item.error?.code,
      ]),
    ).toEqual([
      ['created', undefined],
      ['failed', 'resource_missing'],
      ['failed', 'listing_exists'],
      ['failed', 'resource_missing'],
    ]);
    expect((await get(t.emulator, `/listings/${answer.body.data[0].id}`)).body.status).toBe('ongoing');
    const tooMany = await post('/listings/batch', {
      items: Array.from({ length: 101 }, () => ({ product_id: a, channel_account_id: shopify })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('batch_too_large');
    const malformed = await post('/listings/batch', {
      items: [{ product_id: b, channel_account_id: shopify }, { product_id: b }],
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.param).toBe('items[1].channel_account_id');
    expect((await crawl(t.emulator, `/listings?product_id=${b}`)).length).toBe(0);
  });

  it('test keys: same answers, simulated operation, nothing stored, no events', async () => {
    const productId = await bareProduct('Simulated mug');
    const events = t.emulator.store.events.size;
    const answer = await post(
      '/listings',
      { product_id: productId, channel_account_id: accountOf('etsy') },
      t.emulator.keys.test,
    );
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe('ongoing');
    expect((await get(t.emulator, `/listings/${answer.body.id}`)).status).toBe(404);
    const operation = (await get(t.emulator, `/operations/${answer.body.operation_id}`, t.emulator.keys.test))
      .body;
    expect(operation).toMatchObject({ status: 'succeeded', results: [{ status: 'simulated' }] });
    const seeded = [...t.emulator.store.listings.values()].find((listing) => listing.status === 'error') as {
      id: string;
      status: string;
    };
    const resync = await patch(`/listings/${seeded.id}`, {}, t.emulator.keys.test);
    expect(resync.body.status).toBe('ongoing');
    expect(t.emulator.store.listings.get(seeded.id)?.status).toBe('error');
    expect(t.emulator.store.events.size).toBe(events);
  });

  it('listing writes need listings:write and count against the write quota', async () => {
    const seeded = [...t.emulator.store.listings.values()].find((listing) => listing.status === 'error') as {
      id: string;
    };
    const refused = await patch(`/listings/${seeded.id}`, {}, t.emulator.keys.read_only);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('scope_missing');
    const before = t.emulator.writeQuotaUsed();
    await patch(`/listings/${seeded.id}`, {});
    expect(t.emulator.writeQuotaUsed()).toBe(before + 1);
  });
});

describe('throttled channels', () => {
  it('retry channel_rate_limited with backoff while the listing stays ongoing, then give up; same seed, same story', async () => {
    const stories: string[][] = [];
    for (const run of [1, 2]) {
      const t = await startTestEmulator({ rateLimit: false, channelDelayMs: 100, channelRateLimitShare: 1 });
      try {
        const shopify = [...t.emulator.store.accounts.values()].find(
          (account) => account.channel === 'shopify',
        )?.id;
        const product = (await call(t.emulator, 'POST', '/products', { body: { title: `Throttled ${run}` } }))
          .body.id;
        const created = await call(t.emulator, 'POST', '/listings', {
          body: { product_id: product, channel_account_id: shopify },
        });
        const story: string[] = [];
        for (let step = 0; step < 20; step++) {
          t.clock.advance(100);
          const operation = (await get(t.emulator, `/operations/${created.body.operation_id}`)).body;
          const listing = (await get(t.emulator, `/listings/${created.body.id}`)).body;
          story.push(
            `${operation.status}/${operation.results[0].status}/${operation.results[0].error?.code ?? '-'}/${listing.status}`,
          );
          if (operation.status === 'failed') break;
        }
        expect(story[0]).toBe('processing/processing/channel_rate_limited/ongoing');
        expect(story.at(-1)).toBe('failed/failed/channel_rate_limited/error');
        // Attempts at 100, 200, 400, 800 and 1,600 ms: the backoff doubles from the channel delay.
        expect(story.length).toBe(16);
        stories.push(story);
      } finally {
        await t.emulator.close();
      }
    }
    expect(stories[0]).toEqual(stories[1]);
  });

  it('a share of channel calls is throttled, deterministically under the seed', async () => {
    const outcomes: number[] = [];
    for (const _run of [1, 2]) {
      const t = await startTestEmulator({
        rateLimit: false,
        channelDelayMs: 100,
        channelRateLimitShare: 0.5,
      });
      try {
        const errors = [...t.emulator.store.listings.values()]
          .filter((listing) => listing.status === 'error')
          .slice(0, 20);
        for (const listing of errors)
          await call(t.emulator, 'PATCH', `/listings/${listing.id}`, { body: {} });
        t.clock.advance(100);
        const operations = await crawl(t.emulator, '/operations?status=processing');
        outcomes.push(
          operations.filter((operation) => operation.results[0].error?.code === 'channel_rate_limited')
            .length,
        );
      } finally {
        await t.emulator.close();
      }
    }
    expect(outcomes[0]).toBeGreaterThan(2);
    expect(outcomes[0]).toBeLessThan(18);
    expect(outcomes[1]).toBe(outcomes[0]);
  });
});
