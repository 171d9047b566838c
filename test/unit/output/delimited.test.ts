import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvRow, tsvRow } from '../../../src/output/delimited.js';

describe('csvField', () => {
  it('leaves plain text unquoted', () => {
    expect(csvField('abc')).toBe('abc');
    expect(csvField('')).toBe('');
    expect(csvField('with space')).toBe('with space');
    expect(csvField("it's")).toBe("it's");
  });

  it.each([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\rhere', '"cr\rhere"'],
    ['crlf\r\n', '"crlf\r\n"'],
  ])('quotes %j as RFC 4180 says', (text, expected) => {
    expect(csvField(text)).toBe(expected);
  });
});

describe('csvRow', () => {
  it('joins with commas and ends with LF on stdout, CRLF for files that ask for it', () => {
    expect(csvRow(['id', 'status'])).toBe('id,status\n');
    expect(csvRow(['a,b', '', 'c'])).toBe('"a,b",,c\n');
    expect(csvRow(['id', 'status'], '\r\n')).toBe('id,status\r\n');
  });

  it('round-trips through a csv parser', () => {
    const cells = ['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', '["x","y"]', ''];
    const text = csvRow(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7']) + csvRow(cells);
    const records = parse(text) as string[][];
    expect(records).toEqual([['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7'], cells]);
  });
});

describe('tsvRow', () => {
  it('joins with tabs and ends with LF', () => {
    expect(tsvRow(['id', 'status'])).toBe('id\tstatus\n');
  });

  it('keeps one row per line by escaping tabs, line breaks and backslashes', () => {
    const row = tsvRow(['a\tb', 'two\nlines', 'cr\rx', 'back\\slash', 'a,"b"']);
    expect(row).toBe('a\\tb\ttwo\\nlines\tcr\\rx\tback\\\\slash\ta,"b"\n');
    expect(row.split('\n')).toHaveLength(2);
    expect(row.slice(0, -1).split('\t')).toHaveLength(5);
  });

  it('keeps an escaped backslash distinguishable from an escaped newline', () => {
    expect(tsvRow(['\\n'])).not.toBe(tsvRow(['\n']));
  });
});
