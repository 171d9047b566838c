import { describe, expect, it } from 'vitest';
import { byCreatedAt, byUpdatedAt, MergedList } from '../../../src/client/merged-list.js';
import { PagedList } from '../../../src/client/paginate.js';

interface Item {
  id: string;
  updated_at: string;
}

/** A list served from `items` in pages of at most `pageLimit`, counting the pages asked for. */
function served(items: Item[], limit: number | 'all') {
  const pages: number[] = [];
  const list = new PagedList<Item>(
    async (cursor, pageLimit) => {
      const start = cursor === undefined ? 0 : Number(cursor);
      pages.push(start);
      const data = items.slice(start, start + pageLimit);
      const end = start + data.length;
      return { data, has_more: end < items.length, next_cursor: end < items.length ? String(end) : null };
    },
    limit === 'all' ? {} : { limit },
  );
  return { list, pages };
}

const at = (minute: number) => `2026-11-10T09:${String(minute).padStart(2, '0')}:00.000Z`;
const item = (id: string, minute: number): Item => ({ id, updated_at: at(minute) });

async function read<T>(list: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const each of list) items.push(each);
  return items;
}

describe('MergedList', () => {
  const a = [item('a3', 50), item('a2', 30), item('a1', 10)];
  const b = [item('b3', 40), item('b2', 30), item('b1', 5)];

  it('merges in the list order (updated_at descending, then id descending)', async () => {
    const merged = new MergedList([served(a, 'all').list, served(b, 'all').list], byUpdatedAt, 'all');
    expect((await read(merged)).map((each) => each.id)).toEqual(['a3', 'b3', 'b2', 'a2', 'a1', 'b1']);
    expect(merged.hasMore).toBe(false);
  });

  it('yields an item found by two crawls once (it changed between them), where it came first', async () => {
    // x moved from one list to the other between the crawls: older in the first, newer in the second.
    const first = [item('a3', 50), item('a2', 30), item('x', 20), item('a1', 10)];
    const second = [item('x', 45), ...b];
    for (const lists of [
      [first, second],
      [second, first],
    ]) {
      const merged = new MergedList(
        lists.map((items) => served(items, 'all').list),
        byUpdatedAt,
        'all',
      );
      const yielded = await read(merged);
      expect(yielded.map((each) => each.id)).toEqual(['a3', 'x', 'b3', 'b2', 'a2', 'a1', 'b1']);
      expect(yielded.find((each) => each.id === 'x')?.updated_at).toBe(at(45));
    }
  });

  it('counts the limit over the merged list, and says more is left only when it is', async () => {
    const cut = new MergedList([served(a, 4).list, served(b, 4).list], byUpdatedAt, 4);
    expect((await read(cut)).map((each) => each.id)).toEqual(['a3', 'b3', 'b2', 'a2']);
    expect(cut.hasMore).toBe(true);
    const whole = new MergedList([served(a, 6).list, served(b, 6).list], byUpdatedAt, 6);
    expect(await read(whole)).toHaveLength(6);
    expect(whole.hasMore).toBe(false);
  });

  it('says more is left when one crawl held all of the first N and stopped at its own limit', async () => {
    const late = [item('c1', 1)];
    const first = served(a, 3);
    const merged = new MergedList([first.list, served(late, 3).list], byUpdatedAt, 3);
    expect((await read(merged)).map((each) => each.id)).toEqual(['a3', 'a2', 'a1']);
    expect(merged.hasMore).toBe(true);
    // Nothing beyond the page each crawl needed was asked for.
    expect(first.pages).toEqual([0]);
  });

  it('orders operations by created_at', () => {
    const older = { id: 'op_2', created_at: at(1) };
    const newer = { id: 'op_1', created_at: at(2) };
    expect([older, newer].sort(byCreatedAt).map((each) => each.id)).toEqual(['op_1', 'op_2']);
  });
});
