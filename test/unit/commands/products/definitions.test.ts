/**
 * The products and files commands parsed in-process from their definitions (nothing is
 * sent), and the id check every products verb gets from its definition.
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { main } from '../../../../src/cli/main.js';
import { command as filesUpload } from '../../../../src/commands/files/upload.js';
import { command as productsDelete } from '../../../../src/commands/products/delete.js';
import { command as productsGet } from '../../../../src/commands/products/get.js';
import { command as imagesAdd } from '../../../../src/commands/products/images/add.js';
import { command as imagesRemove } from '../../../../src/commands/products/images/remove.js';
import { command as imagesReorder } from '../../../../src/commands/products/images/reorder.js';
import { command as productsList } from '../../../../src/commands/products/list.js';
import { command as productsUpdate } from '../../../../src/commands/products/update.js';
import { command as productsUpsert } from '../../../../src/commands/products/upsert.js';
import { UsageError } from '../../../../src/errors.js';
import { definitionParser } from '../../../helpers/definition.js';
import { memoryIO } from '../../../helpers/memory-io.js';

(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

const NOW = Date.parse('2026-11-02T12:00:00Z');

describe('products update', () => {
  it('collects repeated --set in order, and reads --expected-updated-at back from the clock', async () => {
    const { calls, parse } = definitionParser(productsUpdate, () => NOW);
    await parse(['prod_1', '--set', 'title=Blue mug', '--set', 'tags=kitchen,blue']);
    await parse(['prod_1', '--file', 'changes.json', '--expected-updated-at', '24h']);
    expect(calls).toEqual([
      { id: 'prod_1', set: ['title=Blue mug', 'tags=kitchen,blue'] },
      { id: 'prod_1', set: [], file: 'changes.json', expectedUpdatedAt: '2026-11-01T12:00:00.000Z' },
    ]);
  });

  it('refuses an --expected-updated-at that is no time, before anything runs', async () => {
    const { calls, parse, errors } = definitionParser(productsUpdate, () => NOW);
    await expect(parse(['prod_1', '--set', 'title=A', '--expected-updated-at', 'soon'])).rejects.toThrow(
      CommanderError,
    );
    expect(errors()).toContain('--expected-updated-at takes an ISO 8601 time');
    expect(calls).toEqual([]);
  });
});

describe('products list, upsert, images and files upload', () => {
  it('list reads --updated-after 7d back from the clock', async () => {
    const { calls, parse } = definitionParser(productsList, () => NOW);
    await parse(['--updated-after', '7d']);
    expect(calls).toEqual([{ updatedAfter: '2026-10-26T12:00:00.000Z' }]);
  });

  it('upsert keeps the file and its flags as given', async () => {
    const { calls, parse } = definitionParser(productsUpsert);
    await parse(['-', '--format', 'jsonl', '--dry-run', '--report', 'out.csv', '--create-unmatched']);
    await parse(['catalog.csv', '--encoding', 'latin1']);
    expect(calls).toEqual([
      { file: '-', format: 'jsonl', dryRun: true, report: 'out.csv', createUnmatched: true },
      { file: 'catalog.csv', encoding: 'latin1' },
    ]);
  });

  it('images add, remove and reorder take the product id, then every image given', async () => {
    const add = definitionParser(imagesAdd);
    await add.parse(['prod_1', 'front.jpg', 'https://example.com/side.webp']);
    expect(add.calls).toEqual([{ id: 'prod_1', image: ['front.jpg', 'https://example.com/side.webp'] }]);
    const remove = definitionParser(imagesRemove);
    await remove.parse(['prod_1', 'img_1', 'img_2']);
    expect(remove.calls).toEqual([{ id: 'prod_1', imageId: ['img_1', 'img_2'] }]);
    const reorder = definitionParser(imagesReorder);
    await reorder.parse(['prod_1', 'img_9']);
    expect(reorder.calls).toEqual([{ id: 'prod_1', imageId: ['img_9'] }]);
  });

  it('files upload takes the path', async () => {
    const { calls, parse } = definitionParser(filesUpload);
    await parse(['front.jpg']);
    expect(calls).toEqual([{ path: 'front.jpg' }]);
  });
});

describe('a product id without its prefix', () => {
  it.each([
    [productsGet, ['p1']],
    [productsUpdate, ['p1', '--set', 'title=A']],
    [productsDelete, ['p1']],
    [imagesAdd, ['p1', 'front.jpg']],
  ])('is refused before the run, naming svc products list (%#)', async (definition, args) => {
    const { calls, parse } = definitionParser(definition);
    await expect(parse(args)).rejects.toThrow(
      new UsageError('"p1" is not a product id (they look like prod_…); find one with `svc products list`'),
    );
    expect(calls).toEqual([]);
  });

  it('ends svc with exit 2 and one line, before any key or service is needed', async () => {
    const io = memoryIO();
    const code = await main(['node', 'svc', 'products', 'delete', 'p1', '--yes'], {
      io,
      env: { NO_COLOR: '1', SVC_CONFIG_DIR: '/nonexistent/svc-test' },
    });
    expect(code).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toContain('"p1" is not a product id (they look like prod_…)');
  });
});
