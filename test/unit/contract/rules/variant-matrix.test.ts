import { describe, expect, it } from 'vitest';
import { checkVariantMatrix } from '../../../../src/contract/rules/variant-matrix.js';

const v = (sku: string, options?: Record<string, string>) => ({ sku, options });

describe('checkVariantMatrix', () => {
  it('accepts variants without options and a dense matrix', () => {
    expect(checkVariantMatrix([v('A'), v('B')])).toBeUndefined();
    expect(checkVariantMatrix([])).toBeUndefined();
    const dense = ['S', 'M'].flatMap((size) =>
      ['Red', 'Blue'].map((color) => v(`${size}${color}`, { Size: size, Color: color })),
    );
    expect(checkVariantMatrix(dense)).toBeUndefined();
  });

  it('names every missing combination, in option-name order', () => {
    const problem = checkVariantMatrix([
      v('SR', { Size: 'S', Color: 'Red' }),
      v('MB', { Size: 'M', Color: 'Blue' }),
    ]);
    expect(problem?.kind).toBe('missing');
    expect(problem?.missing).toEqual([
      { Color: 'Red', Size: 'M' },
      { Color: 'Blue', Size: 'S' },
    ]);
    expect(problem?.message).toBe(
      'the variants do not cover every option combination: missing (Color=Red, Size=M), (Color=Blue, Size=S)',
    );
  });

  it('lists ten missing combinations then counts the rest', () => {
    const sizes = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'];
    const variants = sizes.map((size) => v(`A${size}`, { Size: size, Color: 'A' }));
    variants.push(v('B1', { Size: '1', Color: 'B' }));
    const problem = checkVariantMatrix(variants);
    expect(problem?.missing).toHaveLength(11);
    expect(problem?.message).toMatch(/\(Color=B, Size=11\) and 1 more$/);
  });

  it('refuses differing option names and a variant without options among optioned ones', () => {
    expect(checkVariantMatrix([v('A', { Size: 'S' }), v('B', { Color: 'Red' })])).toMatchObject({
      kind: 'names',
      index: 1,
    });
    const missing = checkVariantMatrix([v('A', { Size: 'S' }), v('B')]);
    expect(missing?.message).toContain('variant 1 (SKU B) has no options');
  });

  it('refuses a combination given twice', () => {
    const problem = checkVariantMatrix([v('A', { Size: 'S' }), v('B', { Size: 'S' })]);
    expect(problem).toMatchObject({ kind: 'duplicate', index: 1 });
    expect(problem?.message).toContain('repeats the combination Size=S of variant 0 (SKU A)');
  });
});
