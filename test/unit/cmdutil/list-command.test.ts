import { describe, expect, it } from 'vitest';
import { PagedList } from '../../../src/client/paginate.js';
import type { ListEnvelope } from '../../../src/client/types.js';
import { Context } from '../../../src/cmdutil/context.js';
import { fromArray, printList } from '../../../src/cmdutil/list-command.js';
import type { View } from '../../../src/output/view.js';
import { memoryIO } from '../../helpers/memory-io.js';

const view: View<number> = { columns: [{ header: 'N', cell: (n) => String(n) }], fields: [] };

/** A service list of `total` numbers, paged by cursor. */
function numbers(total: number, limit: number): PagedList<number> {
  return new PagedList(
    async (cursor, pageLimit): Promise<ListEnvelope<number>> => {
      const start = Number(cursor ?? 0);
      const end = Math.min(total, start + pageLimit);
      const data = Array.from({ length: end - start }, (_, i) => start + i);
      return { object: 'list', data, has_more: end < total, next_cursor: end < total ? String(end) : null };
    },
    { limit },
  );
}

async function hintOf(items: Parameters<typeof printList<number>>[1], stdoutIsTTY = true): Promise<string> {
  const io = memoryIO(stdoutIsTTY);
  await printList(new Context(io, {}), items, view, 'numbers');
  return io.err();
}

describe('printList', () => {
  it('says "Showing the first N" only when the service holds more than the limit let through', async () => {
    expect(await hintOf(numbers(30, 25))).toBe(
      'Showing the first 25 numbers; the service holds more: use --limit N or --all.\n',
    );
    expect(await hintOf(numbers(25, 25))).toBe('');
  });

  it('says a list was cut wherever stdout goes, a pipe or a file too', async () => {
    expect(await hintOf(numbers(30, 25), false)).toMatch(/^Showing the first 25 numbers/);
  });

  it('says nothing of a limit for a list that is whole (one page fetched, an export)', async () => {
    expect(await hintOf(fromArray(Array.from({ length: 40 }, (_, i) => i)))).toBe('');
  });

  it('says when nothing matched on a terminal only (an empty file or pipe says it already)', async () => {
    expect(await hintOf(numbers(0, 25))).toBe('No numbers found.\n');
    expect(await hintOf(numbers(0, 25), false)).toBe('');
  });
});
