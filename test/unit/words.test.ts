import { describe, expect, it } from 'vitest';
import { capped, counted, plural, thousands } from '../../src/words.js';

describe('plural', () => {
  it('says one, and adds s or takes the plural form given for any other count', () => {
    expect([0, 1, 2].map((n) => `${n} ${plural(n, 'line')}`)).toEqual(['0 lines', '1 line', '2 lines']);
    expect(plural(1, 'it', 'them')).toBe('it');
    expect(plural(3, 'retry', 'retries')).toBe('retries');
  });
});

describe('capped', () => {
  it('keeps a list at most max long and counts the rest', () => {
    expect(capped(['a', 'b'], 3)).toEqual(['a', 'b']);
    expect(capped(['a', 'b', 'c', 'd'], 2)).toEqual(['a', 'b', '… and 2 more']);
  });

  it('counts what the list given leaves out of a larger total', () => {
    expect(capped(['a', 'b'], 10, 12)).toEqual(['a', 'b', '… and 10 more']);
  });
});

describe('thousands', () => {
  it('writes whole numbers as toLocaleString("en-US") does', () => {
    for (const n of [
      0,
      7,
      999,
      1000,
      12_345,
      999_999,
      1_000_000,
      1_234_567_890,
      -1,
      -1234,
      Number.MAX_SAFE_INTEGER,
    ]) {
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    }
    expect(counted(1200, 'SKU')).toBe('1,200 SKUs');
  });

  it('leaves what is not a whole number to toLocaleString', () => {
    expect(thousands(1234.5)).toBe((1234.5).toLocaleString('en-US'));
  });
});
