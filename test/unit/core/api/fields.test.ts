import { describe, expect, it } from 'vitest';
import {
  apiPath,
  buildFields,
  type FieldArg,
  keyPath,
  type ReadValueFile,
  toQuery,
  typedValue,
} from '../../../../src/core/api/fields.js';
import { UsageError } from '../../../../src/errors.js';

/** A reader over an in-memory set of files that records what it was asked for. */
function fakeFiles(files: Record<string, string>): ReadValueFile & { asked: string[] } {
  const asked: string[] = [];
  const read = (path: string): string => {
    asked.push(path);
    if (!(path in files)) throw new UsageError(`cannot read ${path}`);
    return files[path];
  };
  return Object.assign(read, { asked });
}

const noFiles: ReadValueFile = (path) => {
  throw new Error(`unexpected read of ${path}`);
};

const typed = (assignment: string): FieldArg => ({ assignment, typed: true });
const raw = (assignment: string): FieldArg => ({ assignment, typed: false });

describe('typedValue', () => {
  it('types true, false and null', () => {
    expect(typedValue('true', noFiles)).toBe(true);
    expect(typedValue('false', noFiles)).toBe(false);
    expect(typedValue('null', noFiles)).toBeNull();
  });

  it('types integers and decimals, negative too', () => {
    expect(typedValue('5', noFiles)).toBe(5);
    expect(typedValue('-12', noFiles)).toBe(-12);
    expect(typedValue('9.5', noFiles)).toBe(9.5);
    expect(typedValue('0', noFiles)).toBe(0);
  });

  it('keeps as typed a number JSON would change: 007, -0, 9.50, more digits than a double holds', () => {
    for (const text of ['007', '-0', '9.50', '0.0', '12345678901234567890', '-007.5'])
      expect(typedValue(text, noFiles)).toBe(text);
  });

  it('keeps anything else a string', () => {
    expect(typedValue('True', noFiles)).toBe('True');
    expect(typedValue('1e3', noFiles)).toBe('1e3');
    expect(typedValue('12abc', noFiles)).toBe('12abc');
    expect(typedValue('1.', noFiles)).toBe('1.');
    expect(typedValue('', noFiles)).toBe('');
    expect(typedValue('hello world', noFiles)).toBe('hello world');
  });

  it('reads @file through the injected reader, content untyped', () => {
    const files = fakeFiles({ 'note.txt': 'line one\nline two\n', 'n.txt': '42' });
    expect(typedValue('@note.txt', files)).toBe('line one\nline two\n');
    expect(typedValue('@n.txt', files)).toBe('42');
    expect(files.asked).toEqual(['note.txt', 'n.txt']);
  });

  it('passes @- through as standard input', () => {
    const files = fakeFiles({ '-': 'from stdin' });
    expect(typedValue('@-', files)).toBe('from stdin');
    expect(files.asked).toEqual(['-']);
  });

  it("lets the reader's error through", () => {
    expect(() => typedValue('@missing.txt', fakeFiles({}))).toThrow(UsageError);
  });
});

describe('keyPath', () => {
  it('splits names, nested keys and appends', () => {
    expect(keyPath('name')).toEqual(['name']);
    expect(keyPath('buyer[country]')).toEqual(['buyer', 'country']);
    expect(keyPath('items[0][sku]')).toEqual(['items', '0', 'sku']);
    expect(keyPath('tags[]')).toEqual(['tags', '']);
    expect(keyPath('a[][b]')).toEqual(['a', '', 'b']);
  });

  it.each(['[a]', 'a[b', 'a]b', 'a[b]c', 'a[[b]]', ''])('refuses the malformed name %j', (key) => {
    expect(() => keyPath(key)).toThrow(UsageError);
    expect(() => keyPath(key)).toThrow(/is malformed; use name, name\[sub\] or name\[\]/);
  });
});

describe('buildFields', () => {
  it('types -F values and keeps -f values as strings', () => {
    const fields = buildFields(
      [typed('quantity=5'), raw('price=9.50'), typed('active=true'), raw('flag=true'), typed('note=null')],
      noFiles,
    );
    expect(fields).toEqual({ quantity: 5, price: '9.50', active: true, flag: 'true', note: null });
  });

  it('does not read files for -f values starting with @', () => {
    expect(buildFields([raw('handle=@shop')], noFiles)).toEqual({ handle: '@shop' });
  });

  it('reads @file for -F values', () => {
    expect(buildFields([typed('description=@d.txt')], fakeFiles({ 'd.txt': 'long text' }))).toEqual({
      description: 'long text',
    });
  });

  it('keeps everything after the first = as the value', () => {
    expect(buildFields([raw('q=a=b=c'), raw('empty=')], noFiles)).toEqual({ q: 'a=b=c', empty: '' });
  });

  it('nests a[b] into objects, merging siblings', () => {
    const fields = buildFields(
      [raw('buyer[name]=Ann'), raw('buyer[address][city]=Lyon'), raw('buyer[address][country]=FR')],
      noFiles,
    );
    expect(fields).toEqual({ buyer: { name: 'Ann', address: { city: 'Lyon', country: 'FR' } } });
  });

  it('appends a[] values to an array in order', () => {
    expect(buildFields([raw('tags[]=red'), typed('tags[]=2'), raw('tags[]=blue')], noFiles)).toEqual({
      tags: ['red', 2, 'blue'],
    });
  });

  it('builds arrays nested in objects and objects pushed into arrays', () => {
    expect(buildFields([raw('a[b][]=1'), raw('a[b][]=2')], noFiles)).toEqual({ a: { b: ['1', '2'] } });
    expect(buildFields([raw('items[][sku]=A')], noFiles)).toEqual({ items: [{ sku: 'A' }] });
  });

  it('lets a later plain value replace an earlier one', () => {
    expect(buildFields([raw('status=a'), raw('status=b')], noFiles)).toEqual({ status: 'b' });
  });

  it('refuses mixing name[] and name[key] in either order', () => {
    expect(() => buildFields([raw('a[]=1'), raw('a[b]=2')], noFiles)).toThrow(UsageError);
    expect(() => buildFields([raw('a[]=1'), raw('a[b]=2')], noFiles)).toThrow(
      /cannot mix name\[\] and name\[key\]/,
    );
    expect(() => buildFields([raw('a[b]=1'), raw('a[]=2')], noFiles)).toThrow(/cannot mix/);
    expect(() => buildFields([raw('x[a][]=1'), raw('x[a][k]=2')], noFiles)).toThrow(/cannot mix/);
  });

  it('refuses nesting under a field that already has a plain value', () => {
    expect(() => buildFields([raw('a=1'), raw('a[b]=2')], noFiles)).toThrow(UsageError);
    expect(() => buildFields([raw('a=1'), raw('a[]=2')], noFiles)).toThrow(
      /"a" is given both a value and nested keys/,
    );
  });

  it.each(['quantity', '=5', ''])('refuses %j without key=value', (assignment) => {
    expect(() => buildFields([raw(assignment)], noFiles)).toThrow(UsageError);
    expect(() => buildFields([raw(assignment)], noFiles)).toThrow(/needs the form key=value/);
  });

  it('returns an empty object for no fields', () => {
    expect(buildFields([], noFiles)).toEqual({});
  });
});

describe('toQuery', () => {
  it('turns scalars into text and nested values into JSON', () => {
    expect(
      toQuery({
        limit: 5,
        status: 'shipped',
        all: true,
        none: null,
        tags: ['a', 'b'],
        buyer: { country: 'FR' },
      }),
    ).toEqual({
      limit: '5',
      status: 'shipped',
      all: 'true',
      none: 'null',
      tags: '["a","b"]',
      buyer: '{"country":"FR"}',
    });
  });
});

describe('apiPath', () => {
  it.each([
    ['/orders', '/orders'],
    ['orders', '/orders'],
    ['/rest/v1/orders', '/orders'],
    ['rest/v1/orders', '/orders'],
    ['/rest/v1/orders/ord_1?status=shipped', '/orders/ord_1?status=shipped'],
    ['/rest/v1', '/'],
    ['/rest/v10/x', '/rest/v10/x'],
    ['https://api.example.com/rest/v1/orders?limit=5&status=shipped', '/orders?limit=5&status=shipped'],
    ['HTTP://localhost:4010/rest/v1/products/p_1', '/products/p_1'],
    ['http://localhost:4010/', '/'],
  ])('%s → %s', (input, expected) => {
    expect(apiPath(input)).toBe(expected);
  });
});
