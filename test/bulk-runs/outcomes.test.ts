/**
 * Every bulk run keeps one final status per input item, and renders the human summary, the
 * `--json` summary and `--report` from it: `total` is the input, the counts add up to it,
 * `skipped` is only what an earlier run confirmed and `not_sent` only what no run applied;
 * the report has one row per input item, in input order (docs/guide.md, Output).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { call } from '../helpers/service-api.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false });
const scratch = () => tempDir('svc-outcomes-');

/** The summary's status counts, which must add up to `total`. */
const COUNTS = ['updated', 'unchanged', 'failed', 'skipped', 'not_sent', 'simulated'] as const;

/** The JSON summary, checked for its shape: every field there, the counts adding up to total. */
function summaryOf(stdout: string): Record<string, number> {
  const summary = JSON.parse(stdout) as Record<string, number>;
  for (const field of [...COUNTS, 'total', 'requests', 'seconds'])
    expect(typeof summary[field], `${field} in ${stdout}`).toBe('number');
  expect(COUNTS.reduce((sum, field) => sum + summary[field], 0)).toBe(summary.total);
  return summary;
}

/** A --report file's rows (header checked), as objects. */
function reportRows(path: string): Array<Record<string, string>> {
  const text = readFileSync(path, 'utf8');
  expect(text.split('\r\n')[0]).toBe('line,key,status,code,message');
  return parse(text, { columns: true }) as Array<Record<string, string>>;
}

const statusesOf = (rows: Array<Record<string, string>>) => {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return counts;
};

/** Every seeded SKU with a new quantity, as a push file: 228 rows. */
function wholeStock(emu: RunningEmulator): { path: string; skus: string[] } {
  const skus = emu.store.allSkus();
  expect(skus.length).toBe(228);
  const path = join(scratch(), 'stock.csv');
  writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${(i % 50) + 1000}`).join('\n')}\n`);
  return { path, skus };
}

describe('inventory push stopped by the write quota, then resumed', () => {
  it('counts the whole file every time and reports every row, not_sent ones included', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    const emu = await start({ writeQuota: 3, clock });
    const { path, skus } = wholeStock(emu);
    const env = envFor(emu);
    const dir = scratch();
    const push = (report: string, extra: string[] = []) =>
      runSvc(
        ['inventory', 'push', path, '--batch-size', '10', '--json', '--report', join(dir, report), ...extra],
        { env: env },
      );

    const first = await push('first.csv');
    expect(first.code, first.stderr).toBe(5);
    expect(summaryOf(first.stdout)).toMatchObject({ total: 228, updated: 30, skipped: 0, not_sent: 198 });
    const firstRows = reportRows(join(dir, 'first.csv'));
    expect(firstRows.map((row) => row.key)).toEqual(skus);
    expect(firstRows.map((row) => Number(row.line))).toEqual(skus.map((_, i) => i + 2));
    expect(statusesOf(firstRows)).toEqual({ updated: 30, not_sent: 198 });
    // The batches the quota refused say why; the ones never sent say so.
    expect(firstRows.filter((row) => row.code === 'write_quota_exceeded').length).toBeGreaterThan(0);

    // The quota is still spent: nothing more goes through, and the resume says so truthfully.
    const again = await push('again.csv', ['--resume']);
    expect(again.code, again.stderr).toBe(5);
    expect(summaryOf(again.stdout)).toMatchObject({ total: 228, updated: 0, skipped: 30, not_sent: 198 });
    const againRows = reportRows(join(dir, 'again.csv'));
    expect(againRows.map((row) => row.key)).toEqual(skus);
    expect(statusesOf(againRows)).toEqual({ skipped: 30, not_sent: 198 });
    expect(againRows.slice(0, 30).every((row) => row.status === 'skipped')).toBe(true);

    // The next day three more batches go through.
    clock.advance(24 * 3_600_000);
    const next = await push('next.csv', ['--resume']);
    expect(next.code, next.stderr).toBe(5);
    expect(summaryOf(next.stdout)).toMatchObject({ total: 228, updated: 30, skipped: 30, not_sent: 168 });
    expect(statusesOf(reportRows(join(dir, 'next.csv')))).toEqual({
      skipped: 30,
      updated: 30,
      not_sent: 168,
    });
  });

  it('the human summary counts the file and names what was not sent', async () => {
    const emu = await start({ writeQuota: 3 });
    const { path } = wholeStock(emu);
    const result = await runSvc(['inventory', 'push', path, '--batch-size', '10'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(
      /Pushed 30 of 228 SKUs in \d+ requests \([\d.]+ s\): 30 updated, 198 not sent/,
    );
  });
});

describe('other bulk runs stopped by the write quota', () => {
  it('products upsert: total is every product of the file, the report every line', async () => {
    const emu = await start({ writeQuota: 1 });
    const path = join(scratch(), 'catalog.jsonl');
    const products = Array.from({ length: 250 }, (_, i) => ({
      title: `Quota tee ${i}`,
      variants: [{ sku: `QUOTA-TEE-${i}`, price: '10.00' }],
    }));
    writeFileSync(path, `${products.map((product) => JSON.stringify(product)).join('\n')}\n`);
    const report = join(scratch(), 'upsert.csv');
    const result = await runSvc(['products', 'upsert', path, '--json', '--report', report], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(5);
    expect(summaryOf(result.stdout)).toMatchObject({ total: 250, updated: 100, not_sent: 150, skipped: 0 });
    const rows = reportRows(report);
    expect(rows.map((row) => row.key)).toEqual(products.map((product) => product.variants[0].sku));
    expect(rows.map((row) => Number(row.line))).toEqual(products.map((_, i) => i + 1));
    expect(statusesOf(rows)).toEqual({ created: 100, not_sent: 150 });
  });

  it('listings retry: every match counted and reported, with an empty line for items from no file', async () => {
    const emu = await start({ writeQuota: 2, channelDelayMs: 50 });
    const report = join(scratch(), 'retry.csv');
    const result = await runSvc(
      [
        'listings',
        'retry',
        '--error-code',
        'photo_required_for_channel',
        '--channel',
        'etsy',
        // Sent whatever their cause, so that the quota stops the run.
        '--include-unfixed',
        '--json',
        '--report',
        report,
      ],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(5);
    expect(summaryOf(result.stdout)).toMatchObject({ total: 9, updated: 2, not_sent: 7 });
    const rows = reportRows(report);
    expect(rows).toHaveLength(9);
    expect(rows.every((row) => row.line === '')).toBe(true);
    expect(statusesOf(rows)).toEqual({ updated: 2, not_sent: 7 });
  });

  it('listings publish --file: the report holds the items never sent', async () => {
    const emu = await start({ writeQuota: 1, products: 200 });
    const accounts = [...emu.store.accounts.values()];
    const pairs: Array<{ product_id: string; channel_account_id: string }> = [];
    for (const product of emu.store.products.values()) {
      const listed = new Set(emu.store.listingsOf(product.id).map((listing) => listing.channel_account_id));
      for (const account of accounts)
        if (!listed.has(account.id) && pairs.length < 150)
          pairs.push({ product_id: product.id, channel_account_id: account.id });
    }
    expect(pairs).toHaveLength(150);
    const path = join(scratch(), 'publish.jsonl');
    writeFileSync(path, `${pairs.map((pair) => JSON.stringify(pair)).join('\n')}\n`);
    const report = join(scratch(), 'publish.csv');
    const result = await runSvc(['listings', 'publish', '--file', path, '--json', '--report', report], {
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(5);
    const summary = summaryOf(result.stdout);
    expect(summary).toMatchObject({ total: 150, not_sent: 50 });
    const rows = reportRows(report);
    expect(rows).toHaveLength(150);
    expect(rows.map((row) => Number(row.line))).toEqual(pairs.map((_, i) => i + 1));
    expect(rows.slice(100).every((row) => row.status === 'not_sent')).toBe(true);
  });
});

describe('a report of a command that waits carries the final state', () => {
  const PHOTO = 'photo_required_for_channel';
  const retry = (report: string, extra: string[] = []) => [
    'listings',
    'retry',
    '--error-code',
    PHOTO,
    '--channel',
    'etsy',
    // Every listing sent, those whose cause is unchanged too: the verdicts say which still fail.
    '--include-unfixed',
    '--wait',
    '--timeout',
    '60',
    '--report',
    report,
    ...extra,
  ];

  /** The emulator with one of the nine etsy listings refused for want of photos given a photo now. */
  async function oneFixed() {
    const emu = await start({ channelDelayMs: 50 });
    const failing = [...emu.store.listings.values()].filter(
      (listing) => listing.status === 'error' && listing.issues.some((issue) => issue.code === PHOTO),
    );
    expect(failing).toHaveLength(9);
    const fixed = failing[0];
    const answer = await call(emu, 'PATCH', `/products/${fixed.product_id}`, {
      body: { images: [{ url: 'https://images.example.com/fixed.jpg' }] },
    });
    expect(answer.status).toBe(200);
    return { emu, fixed: fixed.id, failing: failing.map((listing) => listing.id) };
  }

  it('listings retry --wait --report: rows say listed, or failed with the channel code; exit 3', async () => {
    const { emu, fixed, failing } = await oneFixed();
    const report = join(scratch(), 'retry.csv');
    const result = await runSvc(retry(report), { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('After the resync: 1 listed, 8 still failing');
    const rows = reportRows(report);
    expect(rows.map((row) => row.key).sort()).toEqual([...failing].sort());
    for (const row of rows) {
      expect(row.line).toBe('');
      if (row.key === fixed) expect(row).toMatchObject({ status: 'listed', code: '' });
      else expect(row).toMatchObject({ status: 'failed', code: PHOTO });
    }
    // The human summary agrees with the verdicts.
    expect(result.stderr).toMatch(/Resynced 9 listings in 9 requests \([\d.]+ s\): 1 updated, 8 failed/);
  });

  it('its --json summary agrees with the verdicts: updated is what was listed, failed what still fails', async () => {
    const { emu } = await oneFixed();
    const report = join(scratch(), 'retry.csv');
    const result = await runSvc(retry(report, ['--json']), { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(3);
    expect(summaryOf(result.stdout)).toMatchObject({
      total: 9,
      updated: 1,
      failed: 8,
      listed: 1,
      still_failing: 8,
      still_pending: 0,
    });
    expect(statusesOf(reportRows(report))).toEqual({ listed: 1, failed: 8 });
  });

  it('listings retry --wait exits 0 when every listing it sent is listed again', async () => {
    const emu = await start({ channelDelayMs: 50 });
    const failing = [...emu.store.listings.values()].filter(
      (listing) => listing.status === 'error' && listing.issues.some((issue) => issue.code === PHOTO),
    );
    for (const listing of failing) {
      const answer = await call(emu, 'PATCH', `/products/${listing.product_id}`, {
        body: { images: [{ url: 'https://images.example.com/fixed.jpg' }] },
      });
      expect(answer.status).toBe(200);
    }
    const report = join(scratch(), 'retry.csv');
    const result = await runSvc(retry(report, ['--json']), { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(summaryOf(result.stdout)).toMatchObject({ total: 9, updated: 9, failed: 0, listed: 9 });
    expect(statusesOf(reportRows(report))).toEqual({ listed: 9 });
  });

  it('inventory push --wait: a SKU the channels refused has one row, failed with the channel code', async () => {
    const emu = await start({ channelDelayMs: 50, channelFailureShare: 1 });
    const skus = emu.store.allSkus().slice(0, 20);
    const path = join(scratch(), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${i + 500}`).join('\n')}\n`);
    const report = join(scratch(), 'push.csv');
    const result = await runSvc(
      ['inventory', 'push', path, '--wait', '--timeout', '60', '--json', '--report', report],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(3);
    const summary = summaryOf(result.stdout);
    const rows = reportRows(report);
    expect(rows.map((row) => row.key)).toEqual(skus);
    const refused = rows.filter((row) => row.status === 'failed');
    expect(refused.length).toBeGreaterThan(0);
    for (const row of refused) expect(row.code).toBe('channel_error');
    expect(summary.failed).toBe(refused.length);
    expect(summary.updated).toBe(rows.length - refused.length);
  });
});
