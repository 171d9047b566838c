import { describe, expect, it } from 'vitest';
import { capped, plural } from '../../src/words.js';

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
