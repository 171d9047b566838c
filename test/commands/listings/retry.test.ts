/**
 * `listings retry` spends write quota only where something changed: listings whose cause looks
 * unchanged (no image yet, attributes still missing, a category still not a leaf) are not sent,
 * each reported `unfixed`; --include-unfixed sends them anyway.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

const PHOTO = 'photo_required_for_channel';
const start = emulatorPerTest({ rateLimit: false, channelDelayMs: 20 });

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
    const image = await api(emu, 'PATCH', `/products/${fixed.product_id}`, {
      images: [{ url: 'https://images.example.com/fixed.jpg' }],
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
    const product = (await api(emu, 'GET', `/products/${barcode.product_id}`)).body;
    const variants = product.variants.map((variant: Record<string, unknown>, index: number) => ({
      sku: variant.sku,
      price: variant.price,
      options: variant.options,
      barcode: variant.barcode ?? `01234567890${index}`,
    }));
    expect((await api(emu, 'PATCH', `/products/${barcode.product_id}`, { variants })).status).toBe(200);

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
