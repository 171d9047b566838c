import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyTextProblem, linesOfOffsets, Utf8Watch } from '../../../../src/core/csv/text.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const write = (bytes: Buffer) => {
  const path = join(tempDir('svc-text-'), 'f.csv');
  writeFileSync(path, bytes);
  return path;
};

describe('Utf8Watch', () => {
  it('accepts a character split across chunks, at every split point', () => {
    const bytes = Buffer.from('sku\nCAFÉ-1 😀 ü\n');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const watch = new Utf8Watch();
      watch.onBytes(bytes.subarray(0, cut));
      watch.onBytes(bytes.subarray(cut));
      watch.end();
      expect(watch.badOffsets, `cut at ${cut}`).toEqual([]);
    }
  });

  it('finds every invalid byte, a truncated sequence at the end, overlongs and surrogates', () => {
    const watch = new Utf8Watch();
    watch.onBytes(Buffer.from([0x41, 0xc9, 0x2d, 0xc0, 0xaf, 0xed, 0xa0, 0x80]));
    watch.onBytes(Buffer.from([0x41, 0xe2, 0x82]));
    watch.end();
    expect(watch.badOffsets).toEqual([1, 3, 4, 5, 6, 7, 9]);
  });
});

describe('linesOfOffsets', () => {
  it('counts \r\n, \n and a lone \r as one line break each', async () => {
    const path = write(Buffer.from('h\r\na\nb\rc\r\n\xc9', 'latin1'));
    // Offsets: "a" at 3, "b" at 5, "c" at 7, 0xC9 at 10.
    expect([...(await linesOfOffsets(path, [3, 5, 7, 10]))]).toEqual([
      [2, 0x61],
      [3, 0x62],
      [4, 0x63],
      [5, 0xc9],
    ]);
  });
});

describe('keyTextProblem', () => {
  it('passes plain keys, inner spaces included', () => {
    expect(keyTextProblem('SKU', 'TEE-S-RED')).toBeUndefined();
    expect(keyTextProblem('SKU', 'NO SUCH/SKU')).toBeUndefined();
    expect(keyTextProblem('SKU', 'CAFÉ-1')).toBeUndefined();
  });

  it('names hidden characters by code point and position, and edge whitespace', () => {
    expect(keyTextProblem('SKU', 'A\u00A0B')).toMatch(
      /"A\\u\{A0\}B" .*U\+00A0 no-break space\) at position 2/,
    );
    expect(keyTextProblem('SKU', 'A\u0007')).toMatch(/U\+0007\)/);
    expect(keyTextProblem('SKU', 'A\uFFFD')).toMatch(/replacement character/);
    expect(keyTextProblem('SKU', '\tA')).toMatch(/U\+0009 tab/);
    expect(keyTextProblem('SKU', 'A ')).toMatch(/spaces at its start or end/);
  });
});
