import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportFile } from '../../../src/output/report.js';

describe('--report', () => {
  it("writes rows in the file's line order, not the order chunks landed in, with CRLF", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-report-')), 'out.csv');
    const report = await ReportFile.open(path);
    const chunk = (from: number) =>
      Array.from({ length: 3 }, (_, i) => ({ line: from + i, key: `SKU-${from + i}`, status: 'updated' }));
    report.write(chunk(5));
    report.write(chunk(2));
    report.write(chunk(8));
    await report.close();
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((row) => Number(row.split(',')[0]));
    expect(lines).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
