/**
 * `listings retry` spends write quota only where something changed: listings whose cause looks
 * unchanged (no image yet, attributes still missing, a category still not a leaf) are not sent,
 * each reported `unfixed`; --include-unfixed sends them anyway.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { KEYS, plainText, runAtKeyboard } from '../../helpers/keyboard.js';
import { call, get } from '../../helpers/service-api.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

const PHOTO = 'photo_required_for_channel';
const start = emulatorPerTest({ rateLimit: false, channelDelayMs: 20 });

function failingWith(emu: RunningEmulator, code: string, channel?: string) {
  return [...emu.store.listings.values()].filter(
    (listing) =>
      listing.status === 'error' &&
      (channel === undefined || listing.channel === channel) &&
      listing.issues.some((issue) => issue.code === code),
  );
}

/** The listing ids of the PATCH /listings/{id} requests the emulator took. */
function patched(emu: RunningEmulator): string[] {
  return emu
    .requests({ route: 'PATCH /listings/{id}' })
    .map((record) => decodeURIComponent(record.path.replace('/listings/', '')));
}

function reportRows(path: string): string[][] {
  return readFileSync(path, 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((row) => row.split(','));
}

describe('listings retry skips what looks unfixed', () => {
  it('after one product got a photo, resyncs that one listing only: 1 request, 1 unit of quota, exit 0', async () => {
    const emu = await start();
    const failing = failingWith(emu, PHOTO);
    expect(failing.length).toBeGreaterThan(3);
    const [fixed] = failing;
    const image = await call(emu, 'PATCH', `/products/${fixed.product_id}`, {
      body: { images: [{ url: 'https://images.example.com/fixed.jpg' }] },
    });
    expect(image.status).toBe(200);
    const quotaBefore = emu.writeQuotaUsed();
    const report = join(tempDir('svc-retry-'), 'report.csv');

    const result = await runSvc(
      ['listings', 'retry', '--error-code', PHOTO, '--wait', '--timeout', '30', '--json', '--report', report],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(patched(emu)).toEqual([fixed.id]);
    expect(emu.writeQuotaUsed() - quotaBefore).toBe(1);
    const unfixed = failing.length - 1;
    expect(result.stderr).toContain(`${unfixed} of them look unfixed`);
    expect(result.stderr).toContain('--include-unfixed');
    expect(result.stderr).toMatch(/no image/);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      total: failing.length,
      updated: 1,
      unfixed,
      failed: 0,
      listed: 1,
      still_failing: 0,
      requests: 1,
    });
    const rows = reportRows(report);
    expect(rows.length).toBe(failing.length);
    const byId = new Map(rows.map((row) => [row[1], row]));
    expect(byId.get(fixed.id)?.[2]).toBe('listed');
    for (const listing of failing.slice(1)) {
      const row = byId.get(listing.id);
      expect(row?.[2], listing.id).toBe('unfixed');
      expect(row?.[3]).toBe(PHOTO);
      expect(row?.[4]).toMatch(/no image/);
    }
    expect(emu.store.listings.get(fixed.id)?.status).toBe('listed');
  });

  it('--include-unfixed sends every match, and the ones still failing exit 3', async () => {
    const emu = await start();
    const failing = failingWith(emu, PHOTO);
    const result = await runSvc(
      [
        'listings',
        'retry',
        '--error-code',
        PHOTO,
        '--include-unfixed',
        '--wait',
        '--timeout',
        '30',
        '--json',
      ],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(3);
    expect(new Set(patched(emu))).toEqual(new Set(failing.map((listing) => listing.id)));
    expect(JSON.parse(result.stdout)).toMatchObject({ total: failing.length, unfixed: 0 });
  });

  it('sends nothing when nothing looks fixed, says why, and exits 0', async () => {
    const emu = await start();
    const failing = failingWith(emu, PHOTO);
    const result = await runSvc(['listings', 'retry', '--error-code', PHOTO, '--json'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(patched(emu)).toEqual([]);
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: failing.length,
      unfixed: failing.length,
      requests: 0,
    });
  });

  it('a missing attribute the product now gives (barcodes on every variant) counts as fixed; the others do not', async () => {
    const emu = await start();
    const failing = failingWith(emu, 'missing_required_attribute');
    const barcode = failing.find((listing) =>
      listing.issues.some(
        (issue) =>
          issue.code === 'missing_required_attribute' &&
          issue.attribute_names.length === 1 &&
          issue.attribute_names[0] === 'barcode',
      ),
    );
    expect(barcode, 'a listing missing only its barcode').toBeDefined();
    if (!barcode) return;
    const product = (await get(emu, `/products/${barcode.product_id}`)).body;
    const variants = product.variants.map((variant: Record<string, unknown>, index: number) => ({
      sku: variant.sku,
      price: variant.price,
      options: variant.options,
      barcode: variant.barcode ?? `01234567890${index}`,
    }));
    const barcoded = await call(emu, 'PATCH', `/products/${barcode.product_id}`, { body: { variants } });
    expect(barcoded.status).toBe(200);

    const dry = await runSvc(
      ['listings', 'retry', '--error-code', 'missing_required_attribute', '--dry-run', '--json'],
      { env: envFor(emu) },
    );
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { id: string; retry: { send: boolean; reason: string } }[];
    expect(planned.length).toBe(failing.length);
    for (const listing of planned) {
      expect(listing.retry.send, `${listing.id}: ${listing.retry.reason}`).toBe(listing.id === barcode.id);
      if (listing.id !== barcode.id) expect(listing.retry.reason).toMatch(/still missing/);
    }
    expect(patched(emu)).toEqual([]);
  });

  it('a category that still has subcategories is unfixed', async () => {
    const emu = await start();
    const failing = failingWith(emu, 'category_invalid');
    expect(failing.length).toBeGreaterThan(0);
    const dry = await runSvc(
      ['listings', 'retry', '--error-code', 'category_invalid', '--dry-run', '--json'],
      {
        env: envFor(emu),
      },
    );
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { id: string; retry: { send: boolean; reason: string } }[];
    expect(planned.length).toBe(failing.length);
    for (const listing of planned) {
      expect(listing.retry.send).toBe(false);
      expect(listing.retry.reason).toMatch(/subcategories/);
    }
    expect(dry.stderr).toMatch(/would be resynced/);
  });
});

describe('attribute_value_invalid names the command that shows the allowed values', () => {
  it('listings get adds `svc channels schema ACCOUNT CATEGORY` to the message', async () => {
    const emu = await start();
    const [listing] = failingWith(emu, 'attribute_value_invalid');
    expect(listing).toBeDefined();
    const result = await runSvc(['listings', 'get', listing.id, '-o', 'table'], {
      env: { ...envFor(emu), COLUMNS: '200' },
    });
    expect(result.code, result.stderr).toBe(0);
    // The message column of the issues table, its wrapped lines joined.
    const table = result.stdout.slice(result.stdout.indexOf('\nissues:\n') + '\nissues:\n'.length);
    const [head, ...lines] = table.trimEnd().split('\n');
    const from = head.indexOf('message');
    const to = head.indexOf('attribute_names');
    const message = lines.map((line) => line.slice(from, to).trim()).join(' ');
    const command = /svc channels schema (chac_\w+) (\S+)/.exec(message);
    expect(command, message).not.toBeNull();
    if (!command) return;
    expect(command[1]).toBe(listing.channel_account_id);
    // The command it names works, and lists the attribute the message is about.
    const schema = await runSvc(['channels', 'schema', command[1], command[2], '--json'], {
      env: envFor(emu),
    });
    expect(schema.code, schema.stderr).toBe(0);
    const names = (JSON.parse(schema.stdout).attributes as { name: string }[]).map(
      (attribute) => attribute.name,
    );
    const issue = listing.issues.find((candidate) => candidate.code === 'attribute_value_invalid');
    for (const name of issue?.attribute_names ?? []) expect(names).toContain(name);
  });
});

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
      const answer = await call(emu, 'PATCH', `/products/${listing.product_id}`, {
        body: { images: [{ url: 'https://images.example.com/fixed.jpg' }] },
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

describe('listings retry at a terminal: the steps', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  it('lists every group of the errors summary with its count and cause; the choice runs as its flags, and a no sends nothing', async () => {
    const env = envFor(emu);
    const errors = await runSvc(['listings', 'errors', '--json'], { env });
    const groups = JSON.parse(errors.stdout) as Array<{
      error_code: string;
      channel: string;
      listings: number;
    }>;
    expect(groups.length).toBeGreaterThan(1);
    const second = groups[1];
    const result = await runAtKeyboard(['listings', 'retry', '--include-unfixed'], {
      env,
      keys: [
        { when: /Retry which listings in error\?/, keys: KEYS.down + KEYS.enter },
        { when: /\(y\/N\)/, keys: `n${KEYS.enter}` },
      ],
    });
    expect(result.untyped).toEqual([]);
    expect(result.code).toBe(2);
    const screen = plainText(result.screen);
    for (const group of groups)
      expect(screen).toMatch(
        new RegExp(`${group.error_code}\\s+${group.channel}\\s+${group.listings}\\s+\\S`),
      );
    expect(screen).toContain(
      `Running svc listings retry --include-unfixed --error-code ${second.error_code} --channel ${second.channel}`,
    );
    expect(screen).toContain(
      `Found ${second.listings} listings in error with ${second.error_code} on ${second.channel}.`,
    );
    expect(screen).toContain('retry canceled; nothing was sent');
    expect(emu.requests({ route: 'PATCH /listings/{id}' })).toHaveLength(0);
  });

  it('--channel narrows the summary to that channel and stays the one --channel of the run', async () => {
    const result = await runAtKeyboard(['listings', 'retry', '--channel', 'ebay', '--dry-run'], {
      env: envFor(emu),
      keys: [{ when: /Retry which listings in error\?/, keys: KEYS.enter }],
    });
    expect(result.code, plainText(result.screen)).toBe(0);
    const screen = plainText(result.screen);
    const listed = screen.slice(screen.indexOf('CODE'), screen.indexOf('Running'));
    expect(listed).toMatch(/ebay/);
    expect(listed).not.toMatch(/etsy|amazon|walmart/);
    expect(screen).toMatch(/Running svc listings retry --channel ebay --dry-run --error-code \S+\n/);
    expect(screen).toMatch(/Dry run: .* would be resynced/);
    expect(emu.requests({ route: 'PATCH /listings/{id}' })).toHaveLength(0);
  });

  it('Ctrl-C at the list: exit 130, nothing sent', async () => {
    const result = await runAtKeyboard(['listings', 'retry'], {
      env: envFor(emu),
      keys: [{ when: /Retry which listings in error\?/, keys: KEYS.ctrlC }],
    });
    expect(result.code).toBe(130);
    expect(result.screen).toContain('nothing was sent');
    expect(emu.requests({ route: 'PATCH /listings/{id}' })).toHaveLength(0);
  });

  it('nothing in error within the flags: says so, asks nothing (exit 0)', async () => {
    const result = await runAtKeyboard(['listings', 'retry', '--channel', 'shopify'], { env: envFor(emu) });
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toContain('No listings in error; nothing to retry.');
  });

  it('without a person to ask: exit 2 naming --error-code and svc listings errors', async () => {
    const result = await runSvc(['listings', 'retry'], { env: { ...envFor(emu), CI: 'true' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--error-code photo_required_for_channel \(svc listings errors lists them\)/,
    );
    expect(result.stderr).toContain('the CI variable is set');
    expect(emu.requests({ path: /^\/listings/ })).toHaveLength(0);
  });
});
