import { describe, expect, it } from 'vitest';
import { SkuLines } from '../../../../src/core/inventory/sku-lines.js';

/** Checks a SkuLines against a Map fed the same SKUs, line after line. */
function agreesWithMap(skus: string[], lines: SkuLines): void {
  const reference = new Map<string, number>();
  skus.forEach((sku, index) => {
    const line = index + 2;
    const expected = reference.get(sku);
    if (expected === undefined) reference.set(sku, line);
    expect(lines.addOrGet(sku, line)).toBe(expected);
  });
  expect(lines.size).toBe(reference.size);
}

describe('SkuLines', () => {
  it('returns the first line of a SKU seen before, and undefined for a new one', () => {
    const lines = new SkuLines();
    expect(lines.addOrGet('A-1', 2)).toBeUndefined();
    expect(lines.addOrGet('A-2', 3)).toBeUndefined();
    expect(lines.addOrGet('A-1', 4)).toBe(2);
    expect(lines.addOrGet('A-1', 9)).toBe(2);
    // Exact characters: case, spaces and non-ASCII tell SKUs apart.
    expect(lines.addOrGet('a-1', 10)).toBeUndefined();
    expect(lines.addOrGet('A-1 ', 11)).toBeUndefined();
    expect(lines.addOrGet('Tasse bleue/é', 12)).toBeUndefined();
    expect(lines.addOrGet('Tasse bleue/é', 13)).toBe(12);
    expect(lines.size).toBe(5);
  });

  it('agrees with a Map over many SKUs, through several resizes, with repeats', () => {
    const skus = Array.from({ length: 30_000 }, (_, i) => `SKU-${(i * 7919) % 20_011}`);
    agreesWithMap(skus, new SkuLines());
  });

  it('tells SKUs apart when their hashes collide', () => {
    // Every SKU hashes alike: only the character comparison separates them.
    const skus = ['X', 'Y', 'XY', 'YX', 'X', 'YX', 'Z', 'Y', '', ''];
    agreesWithMap(skus, new SkuLines(() => 42));
    const few = Array.from({ length: 3_000 }, (_, i) => `S${i % 1_700}`);
    agreesWithMap(few, new SkuLines((sku) => sku.length));
  });

  it('grows its character store for long SKUs', () => {
    const long = (n: number) => `${String(n)}-${'x'.repeat(40_000)}`;
    agreesWithMap([long(1), long(2), long(3), long(1), long(2)], new SkuLines());
  });
});
