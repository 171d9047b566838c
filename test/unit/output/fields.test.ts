import { describe, expect, it } from 'vitest';
import {
  cellText,
  flatColumns,
  getPath,
  leafPaths,
  parseFieldList,
  pickPaths,
} from '../../../src/output/fields.js';

const order = {
  id: 'ord_1',
  status: 'shipped',
  total: '12.50',
  buyer: { name: 'Ann', country: 'FR', address: { city: 'Lyon' } },
  tracking: null,
  lines: [{ sku: 'A', quantity: 2 }],
  meta: {},
};

describe('getPath', () => {
  it('reads top-level and dot paths', () => {
    expect(getPath(order, 'id')).toBe('ord_1');
    expect(getPath(order, 'buyer.country')).toBe('FR');
    expect(getPath(order, 'buyer.address.city')).toBe('Lyon');
    expect(getPath(order, 'lines')).toEqual([{ sku: 'A', quantity: 2 }]);
  });

  it('is undefined when a step is missing or not an object', () => {
    expect(getPath(order, 'nope')).toBeUndefined();
    expect(getPath(order, 'buyer.nope.deeper')).toBeUndefined();
    expect(getPath(order, 'tracking.number')).toBeUndefined();
    expect(getPath(order, 'id.length')).toBeUndefined();
    expect(getPath(null, 'id')).toBeUndefined();
    expect(getPath('text', 'id')).toBeUndefined();
  });

  it('returns null when the value itself is null', () => {
    expect(getPath(order, 'tracking')).toBeNull();
  });
});

describe('pickPaths', () => {
  it('keeps only the given paths, with their nesting', () => {
    expect(pickPaths(order, ['id', 'buyer.country'])).toEqual({ id: 'ord_1', buyer: { country: 'FR' } });
  });

  it('merges sibling paths under one parent', () => {
    expect(pickPaths(order, ['buyer.name', 'buyer.address.city'])).toEqual({
      buyer: { name: 'Ann', address: { city: 'Lyon' } },
    });
  });

  it('leaves out paths that are absent but keeps nulls', () => {
    expect(pickPaths(order, ['id', 'missing', 'buyer.missing', 'tracking'])).toEqual({
      id: 'ord_1',
      tracking: null,
    });
  });

  it('keeps arrays and objects whole when named', () => {
    expect(pickPaths(order, ['lines', 'buyer.address'])).toEqual({
      lines: [{ sku: 'A', quantity: 2 }],
      buyer: { address: { city: 'Lyon' } },
    });
  });

  it('does not change its input', () => {
    const copy = structuredClone(order);
    pickPaths(order, ['buyer', 'buyer.country', 'id']);
    expect(order).toEqual(copy);
  });
});

describe('leafPaths', () => {
  it('lists nested objects as dot paths and keeps arrays, nulls and empty objects whole', () => {
    expect(leafPaths(order)).toEqual([
      'id',
      'status',
      'total',
      'buyer.name',
      'buyer.country',
      'buyer.address.city',
      'tracking',
      'lines',
      'meta',
    ]);
  });

  it('is empty for an empty object', () => {
    expect(leafPaths({})).toEqual([]);
  });
});

describe('cellText', () => {
  it('writes strings as they are, numbers and booleans as text', () => {
    expect(cellText('a, "b"')).toBe('a, "b"');
    expect(cellText(0)).toBe('0');
    expect(cellText(9.5)).toBe('9.5');
    expect(cellText(false)).toBe('false');
  });

  it('leaves absent values empty', () => {
    expect(cellText(undefined)).toBe('');
    expect(cellText(null)).toBe('');
  });

  it('writes arrays and objects as JSON', () => {
    expect(cellText(['a', 'b'])).toBe('["a","b"]');
    expect(cellText({ country: 'FR' })).toBe('{"country":"FR"}');
    expect(cellText([])).toBe('[]');
  });
});

describe('parseFieldList', () => {
  it('splits on commas and trims', () => {
    expect(parseFieldList('id, status ,buyer.country')).toEqual(['id', 'status', 'buyer.country']);
  });

  it('drops empty names', () => {
    expect(parseFieldList('id,,status,')).toEqual(['id', 'status']);
  });

  it.each(['', ',', ' , '])('refuses %j with an example', (raw) => {
    expect(() => parseFieldList(raw)).toThrow(
      '--fields needs at least one field name, e.g. --fields id,status',
    );
  });
});

describe('flatColumns', () => {
  const known = [
    'id',
    'buyer',
    'buyer.name',
    'buyer.address',
    'buyer.address.city',
    'buyer.address.country',
    'lines',
    'lines.sku',
    'attributes',
    'attributes.*',
    'data',
    'data.object',
  ];
  it('gives an object of known shape as its leaf fields, in the schema order', () => {
    expect(flatColumns(['id', 'buyer'], known, order)).toEqual([
      'id',
      'buyer.name',
      'buyer.address.city',
      'buyer.address.country',
    ]);
    expect(flatColumns(['buyer.address'], known, undefined)).toEqual([
      'buyer.address.city',
      'buyer.address.country',
    ]);
  });
  it('keeps arrays, open maps and objects of unknown shape as one column', () => {
    expect(flatColumns(['lines', 'attributes', 'data.object', 'data'], known, order)).toEqual([
      'lines',
      'attributes',
      'data.object',
      'data.object',
    ]);
  });
});
