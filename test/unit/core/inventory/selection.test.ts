import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInventoryFile } from '../../../../src/core/inventory/check.js';
import { selectedBatches, selectionProblem } from '../../../../src/core/inventory/selection.js';
import type { ItemOutcome } from '../../../../src/core/outcomes.js';
import { tempDir } from '../../../helpers/temp-dir.js';

async function fileOf(rows: number) {
  const path = join(tempDir('svc-selection-'), 'stock.csv');
  const lines = Array.from({ length: rows }, (_, i) => `SKU-${i},${i}`);
  writeFileSync(path, `sku,quantity\n${lines.join('\n')}\n`);
  return checkInventoryFile(path);
}

describe('selectedBatches', () => {
  it('batches only the selected lines; every other row is passed over as unchanged or unknown', async () => {
    const file = await fileOf(2500);
    // Physical lines: the header is line 1, SKU-0 line 2.
    const send = [2, 5, ...Array.from({ length: 200 }, (_, i) => 1000 + i), 2501];
    const passed: ItemOutcome[] = [];
    const batches: string[][] = [];
    for await (const batch of selectedBatches(file, 100, { send, unknown: [3, 2400] }, (o) =>
      passed.push(...o),
    ))
      batches.push(batch.map((row) => row.sku));
    expect(batches.map((b) => b.length)).toEqual([100, 100, 3]);
    expect(batches.flat()).toEqual(send.map((line) => `SKU-${line - 2}`));
    expect(passed).toHaveLength(2500 - send.length);
    expect(passed.filter((o) => o.status === 'failed').map((o) => [o.line, o.key, o.code])).toEqual([
      [3, 'SKU-1', 'sku_not_found'],
      [2400, 'SKU-2398', 'sku_not_found'],
    ]);
    expect(passed.filter((o) => o.status === 'unchanged')).toHaveLength(2500 - send.length - 2);
  });

  it('without a selection, every row in batches of the size', async () => {
    const file = await fileOf(250);
    const sizes: number[] = [];
    for await (const batch of selectedBatches(file, 100, undefined, () => {
      throw new Error('nothing is passed over');
    }))
      sizes.push(batch.length);
    expect(sizes).toEqual([100, 100, 50]);
  });
});

describe('selectionProblem', () => {
  it('accepts ascending line numbers below the row count and names what else is wrong', () => {
    expect(selectionProblem({ send: [2, 3, 9], unknown: [4] }, 10)).toBeUndefined();
    expect(selectionProblem({ send: [3, 2], unknown: [] }, 10)).toMatch(/ascending/);
    expect(selectionProblem({ send: [1], unknown: [] }, 10)).toMatch(/ascending/);
    expect(selectionProblem({ send: [2, 3], unknown: [4] }, 2)).toMatch(/more lines/);
    expect(selectionProblem({ send: 'all', unknown: [] }, 10)).toMatch(/send is not a list/);
    expect(selectionProblem(null, 10)).toMatch(/not a JSON object/);
  });
});
