import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReport, RowFile, writeReport } from '../../../src/output/report.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('--report', () => {
  it('writes a header and every row in the order given, with CRLF; no line is an empty cell', async () => {
    const path = join(tempDir('svc-report-'), 'out.csv');
    await writeReport(path, [
      { line: 2, key: 'SKU-1', status: 'updated' },
      { key: 'list_1', status: 'failed', code: 'photo_required_for_channel', message: 'a photo, please' },
    ]);
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(
      'line,key,status,code,message\r\n2,SKU-1,updated,,\r\n,list_1,failed,photo_required_for_channel,"a photo, please"\r\n',
    );
  });

  it('writes as it goes and says so when the file cannot be written whole, at the close too', () => {
    // /dev/full takes the open and refuses every write with ENOSPC: the header fails at once.
    expect(() => openReport('/dev/full')).toThrow(/the report \/dev\/full is incomplete/);
    // A file with no head fails at the close, when its rows are written.
    const spool = RowFile.open<string>('/dev/full', { head: '', row: (row) => `${row}\n`, tail: '' });
    spool.write('SKU-1');
    expect(() => spool.close()).toThrow(/the report \/dev\/full is incomplete/);
  });
});
