import { describe, expect, it } from 'vitest';
import type { PageInfo } from '../../../src/client/client.js';
import { PagedList } from '../../../src/client/paginate.js';
import type { ListEnvelope } from '../../../src/client/types.js';
import { SettledCrawl } from '../../../src/core/settled-crawl.js';
import { ProtocolError } from '../../../src/errors.js';

interface Item {
  id: string;
  updated_at: string;
}

const NOW = Date.UTC(2025, 5, 15, 12);

/** Items newest first, served two a page through the one pager, each page dated NOW. */
function passOver(items: () => Item[]) {
  return (onPage: (page: PageInfo) => void) =>
    new PagedList<Item>(
      async (cursor): Promise<ListEnvelope<Item>> => {
        const start = Number(cursor ?? 0);
        const all = items();
        const data = all.slice(start, start + 2);
        const more = start + 2 < all.length;
        onPage({ serverDate: new Date(NOW), count: data.length, hasMore: more });
        return { data, has_more: more, next_cursor: more ? String(start + 2) : null };
      },
      { pageSize: 2 },
    );
}

function crawlOf(items: () => Item[]) {
  return new SettledCrawl(passOver(items), {
    idOf: (item) => item.id,
    changedMs: (item) => Date.parse(item.updated_at),
    what: 'test list',
  });
}

async function collect(crawl: SettledCrawl<Item>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of crawl.items()) ids.push(item.id);
  return ids;
}

describe('SettledCrawl', () => {
  it('reads the head again in closing passes, by design: what it saw before is yielded once', async () => {
    // Every item changed within the slack of the crawl's start: each closing pass re-reads them all.
    const recent = (n: number) => ({ id: `i${n}`, updated_at: new Date(NOW - n * 100).toISOString() });
    const items = [recent(1), recent(2), recent(3)];
    const crawl = crawlOf(() => items);
    expect(await collect(crawl)).toEqual(['i1', 'i2', 'i3']);
    expect(crawl.closingPasses).toBeGreaterThan(0);
  });

  it('refuses an item repeated within one pass: the pager does not take that for the list', async () => {
    const old = (id: string) => ({ id, updated_at: '2025-01-01T00:00:00.000Z' });
    const crawl = crawlOf(() => [old('a'), old('b'), old('a'), old('c')]);
    const error = await collect(crawl).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(String(error)).toMatch(/item a, already seen in this crawl/);
  });

  it('yields once an item changed after the main crawl read it, and catches one it missed', async () => {
    // Keyset pages of two, newest first; between the main crawl's pages, one item it already
    // yielded (i1) and one it has not reached (i5) change, and both jump to the head.
    const at = (ms: number) => new Date(ms).toISOString();
    const store = new Map<string, string>();
    for (let n = 1; n <= 6; n++) store.set(`i${n}`, at(Date.UTC(2025, 0, 1) - n * 1000));
    const sorted = () =>
      [...store]
        .map(([id, updated_at]) => ({ id, updated_at }))
        .sort((a, b) =>
          a.updated_at === b.updated_at ? (a.id < b.id ? 1 : -1) : a.updated_at < b.updated_at ? 1 : -1,
        );
    let pages = 0;
    const pass = (onPage: (page: PageInfo) => void) =>
      new PagedList<Item>(
        async (cursor): Promise<ListEnvelope<Item>> => {
          if (++pages === 2) {
            store.set('i1', at(NOW - 10));
            store.set('i5', at(NOW - 5));
          }
          const all = sorted();
          const after = cursor ? all.findIndex((item) => `${item.updated_at}|${item.id}` === cursor) + 1 : 0;
          const data = all.slice(after, after + 2);
          const more = after + 2 < all.length;
          onPage({ serverDate: new Date(NOW - 60_000), count: data.length, hasMore: more });
          const last = data[data.length - 1];
          return { data, has_more: more, next_cursor: more ? `${last.updated_at}|${last.id}` : null };
        },
        { pageSize: 2, orderedBy: 'updated_at' },
      );
    const crawl = new SettledCrawl(pass, {
      idOf: (item) => item.id,
      changedMs: (item) => Date.parse(item.updated_at),
      what: 'test list',
    });
    const ids = await collect(crawl);
    expect(ids.sort()).toEqual(['i1', 'i2', 'i3', 'i4', 'i5', 'i6']);
    expect(crawl.caughtByClosingPasses).toBe(1);
  });
});
