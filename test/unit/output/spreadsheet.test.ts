import { describe, expect, it } from 'vitest';
import { spreadsheetCell } from '../../../src/output/spreadsheet.js';

describe('spreadsheetCell', () => {
  it('prefixes a quote to a cell a spreadsheet would read as a formula', () => {
    for (const cell of ['=1+2', '+1-555', '-5', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")'])
      expect(spreadsheetCell(cell)).toBe(`'${cell}`);
  });

  it('leaves every other cell as it is', () => {
    for (const cell of ['', 'SKU-1', '12', ' =1', "'=1", 'a=b', 'line\nbreak'])
      expect(spreadsheetCell(cell)).toBe(cell);
  });
});
