import { describe, expect, it } from 'vitest';
import { age } from '../../../src/output/time.js';
import { OUTPUT_FORMATS, resolveFormat } from '../../../src/output/view.js';

describe('resolveFormat', () => {
  it('defaults to table on a terminal and tsv when piped', () => {
    expect(resolveFormat({}, true)).toBe('table');
    expect(resolveFormat({}, false)).toBe('tsv');
  });

  it('follows -o', () => {
    for (const format of OUTPUT_FORMATS) {
      expect(resolveFormat({ output: format }, true)).toBe(format);
      expect(resolveFormat({ output: format }, false)).toBe(format);
    }
  });

  it('lets --json win over -o and the terminal', () => {
    expect(resolveFormat({ json: true }, true)).toBe('json');
    expect(resolveFormat({ json: true, output: 'csv' }, false)).toBe('json');
  });

  it('ignores --json when it is false', () => {
    expect(resolveFormat({ json: false, output: 'ndjson' }, true)).toBe('ndjson');
    expect(resolveFormat({ json: false }, false)).toBe('tsv');
  });

  it('lists the formats the guide promises', () => {
    expect([...OUTPUT_FORMATS].sort()).toEqual(['csv', 'json', 'ndjson', 'table', 'tsv']);
  });
});

describe('age', () => {
  const now = Date.parse('2026-11-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it.each([
    [0, '0s'],
    [59_000, '59s'],
    [60_000, '1m'],
    [59 * 60_000 + 59_000, '59m'],
    [3_600_000, '1h'],
    [23 * 3_600_000 + 59 * 60_000, '23h'],
    [86_400_000, '1d'],
    [45 * 86_400_000, '45d'],
  ])('%i ms ago is %s', (ms, text) => {
    expect(age(ago(ms), now)).toBe(text);
  });

  it('shows a timestamp in the future as 0s', () => {
    expect(age(ago(-60_000), now)).toBe('0s');
  });

  it('honours offsets in the timestamp', () => {
    expect(age('2026-11-10T13:00:00+02:00', now)).toBe('1h');
  });

  it('is empty without a timestamp and shows an unreadable one as it is', () => {
    expect(age(undefined, now)).toBe('');
    expect(age('', now)).toBe('');
    expect(age('not a time', now)).toBe('not a time');
  });
});
