import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/emulator/rng.js';
import { IndexedMap } from '../../../../src/emulator/store/indexed-map.js';
import {
  compareParts,
  mergeLists,
  SortedIndex,
  takePage,
} from '../../../../src/emulator/store/sorted-index.js';

interface Item {
  id: string;
  at: string;
  color: string;
  tags: string[];
}

const key = (item: Item) => item.at;
const descending = (a: Item, b: Item) => -compareParts(a.at, a.id, b.at, b.id);

/** Random items with few distinct keys, so ties on the key are common and ids must break them. */
function makeItem(rng: Rng, n: number): Item {
  return {
    id: `it_${String(rng.int(0, 1e9)).padStart(10, '0')}_${n}`,
    at: `2025-01-${String(rng.int(1, 9)).padStart(2, '0')}`,
    color: rng.pick(['red', 'green', 'blue', 'teal']),
    tags: rng.chance(0.3) ? [rng.pick(['a', 'b', 'c'])] : [],
  };
}

describe('IndexedMap against a plain sort, under inserts, removals and key changes', () => {
  it('serves every page and every index in (key, id) order, from any cursor', () => {
    const rng = new Rng(7);
    const map = new IndexedMap<Item>({
      key,
      direction: 'desc',
      fields: { color: (item) => item.color, tag: (item) => item.tags },
    });
    const first = Array.from({ length: 3000 }, (_, n) => makeItem(rng, n));
    map.load(first);
    let next = first.length;
    // A burst on one key overfills one block, so blocks split.
    for (let n = 0; n < 2500; n++) {
      const item = { ...makeItem(rng, next++), at: '2025-01-05' };
      map.set(item.id, item);
    }
    for (let round = 0; round < 30; round++) {
      for (let step = 0; step < 200; step++) {
        const roll = rng.next();
        const all = [...map.values()];
        if (roll < 0.4 || all.length === 0) {
          const item = makeItem(rng, next++);
          map.set(item.id, item);
        } else if (roll < 0.6) {
          map.delete(rng.pick(all).id);
        } else {
          const item = rng.pick(all);
          map.update(item, () => {
            item.at = `2025-01-${String(rng.int(1, 9)).padStart(2, '0')}`;
            item.color = rng.pick(['red', 'green', 'blue', 'teal']);
            item.tags = rng.chance(0.5) ? ['a', 'a', 'b'] : [];
          });
        }
      }
      const expected = [...map.values()].sort(descending);
      expect([...map.scan(null)]).toEqual(expected);
      for (let probe = 0; probe < 5; probe++) {
        const cursor = rng.pick(expected);
        const after = { key: cursor.at, id: cursor.id };
        const later = expected.slice(expected.indexOf(cursor) + 1);
        expect([...map.scan(after)]).toEqual(later);
        for (const color of ['red', 'teal', 'violet']) {
          expect([...map.scan(after, [['color', color]])]).toEqual(
            later.filter((item) => item.color === color),
          );
        }
        expect([...map.scan(after, [['tag', 'a']])]).toEqual(later.filter((item) => item.tags.includes('a')));
      }
    }
  });

  it('still finds an item whose key changed behind its back', () => {
    const map = new IndexedMap<Item>({ key, direction: 'asc' });
    const items = Array.from({ length: 2000 }, (_, n) => makeItem(new Rng(n), n));
    for (const item of items) map.set(item.id, item);
    items[5].at = '2099-12-31';
    expect(map.delete(items[5].id)).toBe(true);
    expect([...map.scan(null)].map((item) => item.id)).not.toContain(items[5].id);
    expect([...map.scan(null)]).toHaveLength(1999);
  });
});

describe('SortedIndex reading on from a cursor', () => {
  const index = new SortedIndex<Item>(key);
  const items = ['01', '02', '02', '03'].map((day, n) => ({
    id: `id_${n}`,
    at: `2025-01-${day}`,
    color: '',
    tags: [],
  }));
  index.load([...items].reverse());

  it('starts strictly after a cursor in both directions, also one that names no item', () => {
    const ids = (found: Iterable<Item>) => [...found].map((item) => item.id);
    expect(ids(index.from('asc', null))).toEqual(['id_0', 'id_1', 'id_2', 'id_3']);
    expect(ids(index.from('asc', { key: '2025-01-02', id: 'id_1' }))).toEqual(['id_2', 'id_3']);
    expect(ids(index.from('desc', { key: '2025-01-02', id: 'id_2' }))).toEqual(['id_1', 'id_0']);
    expect(ids(index.from('desc', { key: '2025-01-02', id: 'id_15' }))).toEqual(['id_1', 'id_0']);
    expect(ids(index.from('desc', { key: '2026', id: '' }))).toEqual(['id_3', 'id_2', 'id_1', 'id_0']);
    expect(ids(index.from('asc', { key: '2026', id: '' }))).toEqual([]);
  });

  it('pages with a filter and a stop, and merges two lists in order', () => {
    const page = takePage(index.from('desc', null), 1, { filter: (item) => item.id !== 'id_3' });
    expect(page).toEqual({ items: [items[2]], hasMore: true });
    expect(takePage(index.from('desc', null), 5, { stop: (item) => item.at < '2025-01-02' }).items).toEqual([
      items[3],
      items[2],
      items[1],
    ]);
    const other = new SortedIndex<Item>(key);
    other.load([{ id: 'id_9', at: '2025-01-02', color: '', tags: [] }]);
    const merged = [...mergeLists(index.from('desc', null), other.from('desc', null), key, 'desc')];
    expect(merged.map((item) => item.id)).toEqual(['id_3', 'id_9', 'id_2', 'id_1', 'id_0']);
  });
});
