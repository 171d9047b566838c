/** A mark is written under its lock against the mark as it is now: exports at once never move it back. */
import { describe, expect, it } from 'vitest';
import { type ExportMark, readMark, writeMark } from '../../../src/config/marks.js';
import { tempDir } from '../../helpers/temp-dir.js';

const scratch = () => tempDir('svc-marks-lock-');

const markAt = (createdAfter: string, exported: number): ExportMark => ({
  createdAfter,
  boundaryIds: [],
  filters: {},
  baseUrl: 'http://127.0.0.1:4010',
  exported,
  savedAt: createdAfter,
});

describe('writeMark', () => {
  it('of two exports at once, the one that got further keeps the mark, whichever writes last', async () => {
    const dir = scratch();
    await Promise.all([
      writeMark(dir, 'nightly', markAt('2026-01-02T00:00:00.000Z', 9)),
      writeMark(dir, 'nightly', markAt('2026-01-01T00:00:00.000Z', 5)),
    ]);
    await writeMark(dir, 'nightly', markAt('2026-01-01T12:00:00.000Z', 7));
    expect((await readMark(dir, 'nightly'))?.createdAfter).toBe('2026-01-02T00:00:00.000Z');
    await writeMark(dir, 'nightly', markAt('2026-01-03T00:00:00.000Z', 2));
    expect((await readMark(dir, 'nightly'))?.exported).toBe(2);
  });
});
