import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  fitColumns,
  fitTable,
  truncate,
  wrapCommand,
  wrapText,
} from '../../../src/output/fit.js';

describe('fitColumns', () => {
  const headers = ['ID', 'TITLE', 'STATUS'];
  const rows = [
    ['lst_0123456789', 'A very long product title that goes on and on', 'listed'],
    ['lst_9876543210', 'Short', 'error'],
  ];
  const width = (h: string[], r: string[][]) =>
    Math.max(
      ...[h, ...r].map(
        (row) => row.reduce((sum, cell) => sum + displayWidth(cell), 0) + 2 * (row.length - 1),
      ),
    );

  it('leaves a table that fits as it is', () => {
    expect(fitColumns(headers, rows, 200, [false, true, false])).toEqual({ headers, rows });
    expect(fitColumns(headers, rows, undefined, [false, true, false])).toEqual({ headers, rows });
  });

  it('cuts the free-text columns with … until the table fits, never the ids', () => {
    const fitted = fitColumns(headers, rows, 40, [false, true, false]);
    expect(width(fitted.headers, fitted.rows)).toBeLessThanOrEqual(40);
    expect(fitted.rows.map((row) => row[0])).toEqual(['lst_0123456789', 'lst_9876543210']);
    expect(fitted.rows[0][1]).toMatch(/…$/);
    expect(fitted.rows[1][1]).toBe('Short');
  });

  it('shrinks the widest shrinkable column first', () => {
    const fitted = fitColumns(['A', 'B'], [['x'.repeat(30), 'y'.repeat(12)]], 34, [true, true]);
    expect(fitted.rows[0].map((cell) => displayWidth(cell))).toEqual([20, 12]);
  });

  it('stays wider than the terminal rather than cut an id', () => {
    const fitted = fitColumns(['ID'], [['ord_0123456789abcdef']], 10, [false]);
    expect(fitted.rows[0][0]).toBe('ord_0123456789abcdef');
  });
});

describe('truncate and displayWidth', () => {
  it('counts wide characters as two columns and cuts on whole characters', () => {
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(truncate('日本語のタイトル', 7)).toBe('日本語…');
    expect(truncate('abc', 3)).toBe('abc');
  });
});

describe('wrapped columns', () => {
  it('wrap text at spaces, and a word too long after _ - or /', () => {
    expect(wrapText('Add an image to the product and resync.', 12)).toBe(
      'Add an image\nto the\nproduct and\nresync.',
    );
    expect(wrapText('photo_required_for_channel', 12)).toBe('photo_\nrequired_\nfor_channel');
    expect(wrapText('abcdefghij', 4)).toBe('abcd\nefgh\nij');
  });

  it('wrap a command at spaces, each line but the last ending in " \\"', () => {
    const command = 'svc listings retry --error-code missing_required_attribute --channel walmart';
    const wrapped = wrapCommand(command, 33);
    expect(wrapped).toBe(
      'svc listings retry --error-code \\\nmissing_required_attribute \\\n--channel walmart',
    );
    for (const line of wrapped.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(33);
    expect(wrapped.replace(/ \\\n/g, ' ')).toBe(command);
    expect(wrapCommand('svc a b', 40)).toBe('svc a b');
  });

  it('give way after the cut columns, and keep their words whole while a column can be left out', () => {
    const headers = ['ID', 'TITLE', 'WHEN', 'ISSUES'];
    const rows = [['lst_0123456789', 'A very long product title', '3d', 'photo_required_for_channel']];
    const fitted = fitTable(headers, rows, 54, {
      shrinkable: [false, true, false, false],
      wrap: [undefined, undefined, undefined, 'text'],
      dropOrder: [undefined, undefined, 1, undefined],
    });
    // WHEN goes, TITLE is cut, the issue code stays whole on one line.
    expect(fitted.headers).toEqual(['ID', 'TITLE', 'ISSUES']);
    expect(fitted.rows[0][2]).toBe('photo_required_for_channel');
    expect(fitted.rows[0][1]).toMatch(/…$/);
  });

  it('wrap free text inside words only when nothing else is left to give', () => {
    const fitted = fitColumns(
      ['ID', 'ISSUES'],
      [['lst_0123456789', 'photo_required_for_channel']],
      31,
      [false, false],
      [undefined, 'text'],
    );
    expect(fitted.rows[0][0]).toBe('lst_0123456789');
    expect(fitted.rows[0][1]).toBe('photo_required_\nfor_channel');
  });
});
