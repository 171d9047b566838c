/**
 * The listings fix loop on one screen, at 80 columns: titles where listings have none, issue
 * messages whole, what identifies a row and what to do kept on a narrow terminal, and what a
 * filter fixed let go first.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const at80 = (args: string[]) => runSvc([...args, '-o', 'table'], { env: { ...envFor(emu), COLUMNS: '80' } });

/** The text of one column on each line after the header, cut at the header's offsets. */
function column(table: string, header: string): string[] {
  const lines = table.trimEnd().split('\n');
  const head = lines[0];
  const start = head.indexOf(header);
  if (start < 0) throw new Error(`no column ${header} in: ${head}`);
  const after = start + header.length;
  const next = /\s{2,}(?=\S)/.exec(head.slice(after));
  const end = next ? after + next.index + next[0].length : undefined;
  return lines.slice(1).map((line) => line.slice(start, end).trimEnd());
}

function widest(text: string): number {
  return Math.max(
    ...text
      .trimEnd()
      .split('\n')
      .map((line) => line.length),
  );
}

describe('listings list at 80 columns', () => {
  it("shows the product's title where the listing has none, reading each product at most once", async () => {
    const result = await at80(['listings', 'list', '--limit', '50']);
    expect(result.code, result.stderr).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(80);
    const ids = column(result.stdout, 'ID');
    const titles = column(result.stdout, 'TITLE');
    const rows = ids.map((id, index) => ({ id, title: titles[index] })).filter((row) => row.id !== '');
    expect(rows.length).toBe(50);
    const products = new Set<string>();
    for (const { id, title } of rows) {
      const listing = emu.store.listings.get(id);
      expect(listing, id).toBeDefined();
      if (!listing) continue;
      const product = emu.store.products.get(listing.product_id);
      const full =
        typeof listing.overrides.title === 'string' ? listing.overrides.title : (product?.title ?? '');
      if (typeof listing.overrides.title !== 'string') products.add(listing.product_id);
      expect(title, id).not.toBe('');
      // Cut to fit, perhaps, but the listing's title or else its product's.
      expect(full.startsWith(title.replace(/…$/, '')), `${id}: ${title} / ${full}`).toBe(true);
    }
    const reads = emu
      .requests({ route: 'GET /products/{id}' })
      .map((record) => decodeURIComponent(record.path.replace('/products/', '')));
    expect(products.size).toBeGreaterThan(5);
    expect(reads.length).toBeLessThanOrEqual(products.size);
    expect(new Set(reads).size).toBe(reads.length);
    for (const read of reads) expect(products.has(read)).toBe(true);
  });

  it('reads no product for machine formats', async () => {
    const result = await runSvc(['listings', 'list', '--limit', '50', '--json'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(emu.requests({ route: 'GET /products/{id}' })).toEqual([]);
  });

  it('under --status keeps ISSUES whole and lets STATUS go', async () => {
    const result = await at80(['listings', 'list', '--status', 'error', '--limit', '40']);
    expect(result.code, result.stderr).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(80);
    const header = result.stdout.split('\n')[0];
    expect(header).toContain('ISSUES');
    expect(header).not.toContain('STATUS');
    const codes = new Set(
      [...emu.store.listings.values()].flatMap((listing) => listing.issues.map((issue) => issue.code)),
    );
    const cells = column(result.stdout, 'ISSUES').join(' ');
    expect(cells).not.toContain('…');
    const words = cells.split(/[\s,]+/).filter(Boolean);
    expect(words.length).toBeGreaterThan(0);
    for (const word of words) expect(codes.has(word), word).toBe(true);
  });
});

describe('listings get at 80 columns', () => {
  it('shows every issue message whole, wrapped rather than cut', async () => {
    const listing = [...emu.store.listings.values()].find((candidate) =>
      candidate.issues.some((issue) => issue.code === 'photo_required_for_channel'),
    );
    expect(listing).toBeDefined();
    if (!listing) return;
    const result = await at80(['listings', 'get', listing.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(80);
    expect(result.stdout).not.toContain('…');
    const issues = result.stdout.slice(result.stdout.indexOf('\nissues:\n') + '\nissues:\n'.length);
    const message = column(issues, 'message')
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' ');
    const expected = listing.issues.map((issue) => issue.message).join(' ');
    expect(message).toBe(expected);
    expect(issues).toContain('photo_required_for_channel');
  });
});

describe('listings errors at 80 columns', () => {
  it('keeps the retry command of every row, whole', async () => {
    const result = await at80(['listings', 'errors']);
    expect(result.code, result.stderr).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(80);
    expect(result.stdout.split('\n')[0]).toContain('RETRY');
    // A command wrapped onto more lines ends each but the last with " \": pasted, it still runs.
    const joined = result.stdout.replace(/ \\\n\s+/g, ' ');
    const groups = JSON.parse(
      (await runSvc(['listings', 'errors', '--json'], { env: envFor(emu) })).stdout,
    ) as {
      retry: string;
    }[];
    expect(groups.length).toBeGreaterThan(3);
    for (const group of groups) expect(joined).toContain(group.retry);
  });
});

describe('orders list at 80 columns', () => {
  it('keeps ORDER ON CHANNEL, the id the buyer quotes', async () => {
    const result = await at80(['orders', 'list', '--limit', '10']);
    expect(result.code, result.stderr).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(80);
    expect(result.stdout.split('\n')[0]).toContain('ORDER ON CHANNEL');
    const ids = column(result.stdout, 'ID');
    for (const id of ids) {
      const order = emu.store.orders.get(id);
      expect(order, id).toBeDefined();
      expect(result.stdout).toContain(order?.order_id_on_channel ?? '(none)');
    }
  });
});

describe('listings retry --dry-run', () => {
  it('names accounts by their labels, as listings list does', async () => {
    const result = await runSvc(
      ['listings', 'retry', '--error-code', 'photo_required_for_channel', '--dry-run', '-o', 'table'],
      { env: { ...envFor(emu), COLUMNS: '160' } },
    );
    expect(result.code, result.stderr).toBe(0);
    const etsy = [...emu.store.accounts.values()].find((account) => account.channel === 'etsy');
    expect(result.stdout).toContain(etsy?.label ?? '(no etsy account)');
    expect(result.stdout).not.toContain('chac_');
  });
});
