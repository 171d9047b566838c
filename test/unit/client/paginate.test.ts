import { describe, expect, it } from 'vitest';
import { PagedList, paginate } from '../../../src/client/paginate.js';
import type { ListEnvelope } from '../../../src/client/types.js';

/** A list of `total` numbered items served in pages, recording each page request. */
function fakeList(total: number, endMarker: 'null' | 'absent' | 'empty' | 'has_more' = 'null') {
  const calls: { cursor?: string; limit: number }[] = [];
  const fetchPage = async (cursor: string | undefined, limit: number): Promise<ListEnvelope<number>> => {
    calls.push({ cursor, limit });
    const start = cursor === undefined ? 0 : Number(cursor.slice(2));
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i);
    const end = start + data.length;
    const more = end < total;
    const page: ListEnvelope<number> = { object: 'list', data, has_more: more, next_cursor: `c_${end}` };
    if (!more) {
      if (endMarker === 'null') page.next_cursor = null;
      if (endMarker === 'absent') delete page.next_cursor;
      if (endMarker === 'empty') page.next_cursor = '';
      if (endMarker === 'has_more') delete page.has_more;
      if (endMarker !== 'has_more') page.has_more = false;
      else page.next_cursor = null;
    }
    return page;
  };
  return { calls, fetchPage };
}

async function collect<T>(iter: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iter) items.push(item);
  return items;
}

describe('paginate', () => {
  it('reading ahead, asks for the next page before the items of this one are read, and the same pages', async () => {
    const list = fakeList(250);
    const order: string[] = [];
    const fetchPage = async (cursor: string | undefined, limit: number) => {
      order.push(`fetch ${cursor ?? 'first'}`);
      const page = await list.fetchPage(cursor, limit);
      const read = (item: number) => {
        order.push(`read ${item}`);
        return item * 10;
      };
      return { ...page, read };
    };
    const items = await collect(paginate(fetchPage, { limit: 230, readAhead: true }));
    expect(items).toEqual(Array.from({ length: 230 }, (_, i) => i * 10));
    expect(list.calls).toEqual([
      { cursor: undefined, limit: 100 },
      { cursor: 'c_100', limit: 100 },
      { cursor: 'c_200', limit: 30 },
    ]);
    expect(order.indexOf('fetch c_100')).toBeLessThan(order.indexOf('read 0'));
  });

  it('asks limit=min(100, left) and stops at the limit', async () => {
    const list = fakeList(1000);
    const items = await collect(paginate(list.fetchPage, { limit: 250 }));
    expect(items).toHaveLength(250);
    expect(items[249]).toBe(249);
    expect(list.calls).toEqual([
      { cursor: undefined, limit: 100 },
      { cursor: 'c_100', limit: 100 },
      { cursor: 'c_200', limit: 50 },
    ]);
  });

  it('keeps pages to a smaller page size when asked', async () => {
    const list = fakeList(1000);
    expect(await collect(paginate(list.fetchPage, { limit: 25, pageSize: 10 }))).toHaveLength(25);
    expect(list.calls.map((c) => c.limit)).toEqual([10, 10, 5]);
    await expect(collect(paginate(list.fetchPage, { pageSize: 101 }))).rejects.toThrow(RangeError);
  });

  it('asks one small page for a small limit', async () => {
    const list = fakeList(1000);
    expect(await collect(paginate(list.fetchPage, { limit: 25 }))).toHaveLength(25);
    expect(list.calls).toEqual([{ cursor: undefined, limit: 25 }]);
  });

  it('follows next_cursor to the end without a limit', async () => {
    const list = fakeList(230);
    const items = await collect(paginate(list.fetchPage));
    expect(items).toEqual(Array.from({ length: 230 }, (_, i) => i));
    expect(list.calls.map((c) => c.limit)).toEqual([100, 100, 100]);
  });

  it.each(['null', 'absent', 'empty', 'has_more'] as const)(
    'ends on a last page marked %s',
    async (marker) => {
      const list = fakeList(150, marker);
      expect(await collect(paginate(list.fetchPage))).toHaveLength(150);
      expect(list.calls).toHaveLength(2);
    },
  );

  it('sends nothing for limit 0 and refuses a bad limit', async () => {
    const list = fakeList(10);
    expect(await collect(paginate(list.fetchPage, { limit: 0 }))).toEqual([]);
    expect(list.calls).toEqual([]);
    await expect(collect(paginate(list.fetchPage, { limit: -1 }))).rejects.toThrow(RangeError);
  });

  it('stops on a server that repeats a cursor', async () => {
    const fetchPage = async (): Promise<ListEnvelope<number>> => ({
      data: [1],
      has_more: true,
      next_cursor: 'same',
    });
    await expect(collect(paginate(fetchPage))).rejects.toThrow(/already seen in this crawl/);
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
  ] as const)('refuses a page that says has_more: true with next_cursor %s', async (_name, cursor) => {
    const fetchPage = async (): Promise<ListEnvelope<{ id: string }>> => {
      const page: ListEnvelope<{ id: string }> = { data: [{ id: 'a' }], has_more: true };
      if (cursor !== undefined) page.next_cursor = cursor;
      return page;
    };
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const item of paginate(fetchPage)) seen.push(item);
      })(),
    ).rejects.toThrow(/has_more: true on a page without a usable next_cursor/);
    expect(seen).toHaveLength(1);
  });

  it('takes such a page as "more held" when the limit ends there: the rest is not wanted', async () => {
    const fetchPage = async (): Promise<ListEnvelope<{ id: string }>> => ({
      data: [{ id: 'a' }, { id: 'b' }],
      has_more: true,
      next_cursor: null,
    });
    const paged = new PagedList(fetchPage, { limit: 2 });
    expect(await collect(paged)).toHaveLength(2);
    expect(paged.hasMore).toBe(true);
  });

  it('refuses an item id seen before in the same crawl, even under a fresh cursor', async () => {
    let n = 0;
    const fetchPage = async (): Promise<ListEnvelope<{ id: string }>> => {
      n++;
      return { data: [{ id: n === 3 ? 'p2' : `p${n}` }], has_more: true, next_cursor: `fresh_${n}` };
    };
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const item of paginate(fetchPage)) seen.push(item);
      })(),
    ).rejects.toThrow(/item p2, already seen in this crawl/);
    expect(seen).toEqual([{ id: 'p1' }, { id: 'p2' }]);
  });

  it('refuses a repeat from far back in an ordered list, remembering only one page', async () => {
    // 1,000 pages newest first; page 900 serves page 10's item again under a fresh cursor.
    const at = (page: number) => new Date(Date.UTC(2026, 0, 1) - page * 1000).toISOString();
    const itemOf = (page: number) => ({
      id: `ord_${String(1000 - page).padStart(4, '0')}`,
      updated_at: at(page),
    });
    let n = 0;
    const fetchPage = async (): Promise<ListEnvelope<{ id: string; updated_at: string }>> => {
      n++;
      return { data: [itemOf(n === 900 ? 10 : n)], has_more: true, next_cursor: `fresh_${n}` };
    };
    let count = 0;
    await expect(
      (async () => {
        for await (const _item of paginate(fetchPage, { orderedBy: 'updated_at' })) count++;
      })(),
    ).rejects.toThrow(/item ord_0990 out of the list's order/);
    expect(count).toBe(899);
    // The same instant: the id breaks the tie, descending.
    const tied = [
      { id: 'ord_b', updated_at: at(1) },
      { id: 'ord_a', updated_at: at(1) },
      { id: 'ord_c', updated_at: at(1) },
    ];
    await expect(
      collect(paginate(async () => ({ data: tied, has_more: false }), { orderedBy: 'updated_at' })),
    ).rejects.toThrow(/item ord_c out of the list's order/);
  });

  it('tells items apart only by id: items without one (numbers, svc api lists) are not compared', async () => {
    const list = fakeList(5);
    const fetchPage = async (cursor: string | undefined, limit: number) => {
      const page = await list.fetchPage(cursor, limit);
      return { ...page, data: page.data.map(() => 7) };
    };
    expect(await collect(paginate(fetchPage, { pageSize: 2 }))).toEqual([7, 7, 7, 7, 7]);
  });

  it('passes a failing page through after the items before it', async () => {
    const list = fakeList(300);
    const failing = async (cursor: string | undefined, limit: number) => {
      if (cursor === 'c_100') throw new Error('boom');
      return list.fetchPage(cursor, limit);
    };
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of paginate(failing)) seen.push(item);
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toHaveLength(100);
  });
});

describe('PagedList.hasMore', () => {
  it('is true when the crawl stopped at its limit with more on the service, and it stops fetching', async () => {
    const list = fakeList(1000);
    const paged = new PagedList(list.fetchPage, { limit: 120 });
    expect(paged.hasMore).toBeUndefined();
    expect(await collect(paged)).toHaveLength(120);
    expect(paged.hasMore).toBe(true);
    expect(list.calls).toHaveLength(2);
  });

  it('is true when the limit ends on a page that says more follows', async () => {
    const paged = new PagedList(fakeList(1000).fetchPage, { limit: 30 });
    expect(await collect(paged)).toHaveLength(30);
    expect(paged.hasMore).toBe(true);
  });

  it('is false when the list ended, even exactly at the limit', async () => {
    for (const [total, limit] of [
      [100, 100],
      [50, 50],
      [5, 25],
      [250, undefined],
    ] as const) {
      const paged = new PagedList(fakeList(total).fetchPage, { limit });
      expect(await collect(paged)).toHaveLength(total);
      expect(paged.hasMore, `${total} items, limit ${limit}`).toBe(false);
    }
  });
});
