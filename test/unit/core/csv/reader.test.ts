import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvFile, detectDelimiter } from '../../../../src/core/csv/reader.js';
import { UsageError } from '../../../../src/errors.js';
import { tempDir } from '../../../helpers/temp-dir.js';

function csvFile(content: string | Buffer): string {
  const path = join(tempDir('svc-csv-'), 'input.csv');
  writeFileSync(path, content);
  return path;
}

async function recordsOf(csv: CsvFile): Promise<Array<[number, string[]]>> {
  const records: Array<[number, string[]]> = [];
  for await (const { line, record } of csv.records()) records.push([line, record]);
  return records;
}

describe('detectDelimiter', () => {
  it('picks the most frequent of comma, semicolon and tab outside quotes', () => {
    expect(detectDelimiter('sku,quantity,price')).toBe(',');
    expect(detectDelimiter('sku;quantity;price')).toBe(';');
    expect(detectDelimiter('sku\tquantity')).toBe('\t');
    expect(detectDelimiter('"a;b;c",quantity')).toBe(',');
    expect(detectDelimiter('sku')).toBe(',');
  });
});

describe('CsvFile', () => {
  it('reads records with their physical lines, whatever the delimiter and line endings', async () => {
    const csv = await CsvFile.open(csvFile('\uFEFFa;b\r\n1;2\n\n3;4\r5;6'));
    expect(csv.delimiter).toBe(';');
    expect(await recordsOf(csv)).toEqual([
      [1, ['a', 'b']],
      [2, ['1', '2']],
      [4, ['3', '4']],
      [5, ['5', '6']],
    ]);
    expect(await csv.encodingProblems()).toEqual([]);
  });

  it('a file the parser gives up on is one "not readable as CSV" line naming where (exit 2)', async () => {
    const path = csvFile('sku,quantity\n"A-1,3\n');
    const reading = recordsOf(await CsvFile.open(path));
    await expect(reading).rejects.toThrow(UsageError);
    await expect(reading).rejects.toThrow(
      new RegExp(`^${path} line \\d+: not readable as CSV: .*; nothing was sent$`),
    );
  });

  it('watches the bytes for text that is not UTF-8, and hands every byte on as read', async () => {
    const bytes = Buffer.concat([Buffer.from('sku,quantity\nCAF'), Buffer.from([0xc9]), Buffer.from(',1\n')]);
    const seen: Buffer[] = [];
    const csv = await CsvFile.open(csvFile(bytes), { onBytes: (chunk) => seen.push(chunk) });
    await recordsOf(csv);
    expect(Buffer.concat(seen)).toEqual(bytes);
    expect((await csv.encodingProblems()).map((problem) => problem.line)).toEqual([2]);
    const latin1 = await CsvFile.open(csvFile(bytes), { encoding: 'latin1' });
    expect((await recordsOf(latin1))[1]).toEqual([2, ['CAFÉ', '1']]);
    expect(await latin1.encodingProblems()).toEqual([]);
  });
});
