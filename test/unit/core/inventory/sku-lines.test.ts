import { describe, expect, it } from 'vitest';
import { confirmDuplicates, SkuFingerprints, type SkuRow } from '../../../../src/core/inventory/sku-lines.js';

/** The rows of `skus` (line = index + 2), as the second read hands them over. */
async function* rowsOf(skus: string[]): AsyncGenerator<SkuRow[]> {
  yield skus.map((sku, index) => ({ line: index + 2, sku }));
}

/** What a Map fed the same SKUs calls duplicates: line, SKU and first line. */
function mapDuplicates(skus: string[]) {
  const first = new Map<string, number>();
  const duplicates: { line: number; sku: string; first: number }[] = [];
  skus.forEach((sku, index) => {
    const earlier = first.get(sku);
    if (earlier === undefined) first.set(sku, index + 2);
    else duplicates.push({ line: index + 2, sku, first: earlier });
  });
  return duplicates;
}

/** Runs both steps over `skus` and checks them against a Map. */
async function agreesWithMap(skus: string[], prints: SkuFingerprints): Promise<Set<string>> {
  for (const sku of skus) prints.add(sku);
  const repeated = prints.repeated();
  expect(await confirmDuplicates(repeated, rowsOf(skus), prints)).toEqual(mapDuplicates(skus));
  return repeated;
}

describe('SkuFingerprints and confirmDuplicates', () => {
  it('finds no repeated fingerprint in a file without duplicates', async () => {
    const skus = Array.from({ length: 200_000 }, (_, i) => `SKU-${i}`);
    expect((await agreesWithMap(skus, new SkuFingerprints())).size).toBe(0);
  });

  it('find each duplicate and the line its SKU was first on, exactly', async () => {
    // Exact characters: case, spaces and non-ASCII tell SKUs apart.
    const skus = ['A-1', 'A-2', 'A-1', 'a-1', 'A-1 ', 'Tasse bleue/é', 'A-1', 'Tasse bleue/é', ''];
    const repeated = await agreesWithMap(skus, new SkuFingerprints());
    expect(repeated.size).toBe(2);
  });

  it('agree with a Map over many SKUs, with repeats far apart', async () => {
    const skus = Array.from({ length: 30_000 }, (_, i) => `SKU-${(i * 7919) % 20_011}`);
    await agreesWithMap(skus, new SkuFingerprints());
  });

  it('tell SKUs apart when their fingerprints collide', async () => {
    // Every SKU fingerprints alike: only the exact comparison separates them.
    await agreesWithMap(['X', 'Y', 'XY', 'YX', 'X', 'YX', 'Z', 'Y', '', ''], new SkuFingerprints(() => 42));
    const few = Array.from({ length: 3_000 }, (_, i) => `S${i % 1_700}`);
    await agreesWithMap(few, new SkuFingerprints((sku) => sku.length));
    // Colliding, but no two alike: suspects only, no duplicate.
    const distinct = ['P', 'Q', 'R'];
    const prints = new SkuFingerprints(() => 7);
    for (const sku of distinct) prints.add(sku);
    expect(await confirmDuplicates(prints.repeated(), rowsOf(distinct), prints)).toEqual([]);
  });

  it('take long SKUs', async () => {
    const long = (n: number) => `${String(n)}-${'x'.repeat(40_000)}`;
    await agreesWithMap([long(1), long(2), long(3), long(1), long(2)], new SkuFingerprints());
  });
});
