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
  const claimed = new Set<string>();
  return new SettledCrawl(passOver(items), {
    claim: (item) => !claimed.has(item.id) && Boolean(claimed.add(item.id)),
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
});
