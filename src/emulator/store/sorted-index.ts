/**
 * Items kept in ascending (key, id) order, in blocks of a few hundred: inserting, removing
 * and finding a cursor cost a binary search plus a move inside one block, whatever the size,
 * and reading on from a cursor costs only what is read. A page of a list is then a search
 * and the page, not a pass over the store (a million orders page as fast as ten thousand).
 */

/** A position in a list: the sort key and id of an item, as a cursor holds them. */
export interface ListPosition {
  key: string;
  id: string;
}

/** Which way a list is served. */
export type Direction = 'asc' | 'desc';

// Blocks split past MAX_BLOCK; loading fills them to LOAD so inserts have room.
const LOAD = 512;
const MAX_BLOCK = 2 * LOAD;

/** A sorted multiset of items with unique ids, ordered by (key(item), item.id). */
export class SortedIndex<T extends { id: string }> {
  private blocks: T[][] = [];
  private count = 0;

  constructor(private readonly key: (item: T) => string) {}

  /** How many items it holds. */
  get size(): number {
    return this.count;
  }

  /** Replace the contents with `items` (any order): one sort instead of one insert each. */
  load(items: readonly T[]): void {
    const key = this.key;
    // Sorted by reading each key again (a field): no pair per item to build, a million at once.
    const sorted = items.slice().sort((a, b) => compareParts(key(a), a.id, key(b), b.id));
    this.loadSorted(sorted);
  }

  /** Replace the contents with `items` already in ascending (key, id) order. */
  loadSorted(items: T[]): void {
    this.blocks = [];
    for (let start = 0; start < items.length; start += LOAD)
      this.blocks.push(items.slice(start, start + LOAD));
    this.count = items.length;
  }

  /** Add an item (its id must not be in the index already). */
  insert(item: T): void {
    const key = this.key(item);
    this.count++;
    if (this.blocks.length === 0) {
      this.blocks.push([item]);
      return;
    }
    const blockIndex = Math.min(this.blockFor(key, item.id), this.blocks.length - 1);
    const block = this.blocks[blockIndex];
    block.splice(this.lowerBound(block, key, item.id), 0, item);
    if (block.length > MAX_BLOCK) {
      const half = block.length >> 1;
      this.blocks.splice(blockIndex, 1, block.slice(0, half), block.slice(half));
    }
  }

  /**
   * Remove an item, found by the key it has now; false when it is not here. An item whose
   * key was changed without taking it out first is found by a slower search, never missed.
   */
  remove(item: T): boolean {
    const key = this.key(item);
    const blockIndex = this.blockFor(key, item.id);
    const block = this.blocks[blockIndex];
    if (block) {
      const position = this.lowerBound(block, key, item.id);
      if (block[position] === item) {
        this.removeAt(blockIndex, position);
        return true;
      }
    }
    for (let index = 0; index < this.blocks.length; index++) {
      const position = this.blocks[index].indexOf(item);
      if (position >= 0) {
        this.removeAt(index, position);
        return true;
      }
    }
    return false;
  }

  /** Every item, in ascending order. */
  *[Symbol.iterator](): Generator<T> {
    for (const block of this.blocks) yield* block;
  }

  /** The items strictly after `after` in `direction` (every item when `after` is null). */
  *from(direction: Direction, after: ListPosition | null): Generator<T> {
    const { blocks } = this;
    if (blocks.length === 0) return;
    let blockIndex: number;
    let position: number;
    if (after === null) {
      blockIndex = direction === 'asc' ? 0 : blocks.length - 1;
      position = direction === 'asc' ? 0 : blocks[blockIndex].length - 1;
    } else {
      blockIndex = this.blockFor(after.key, after.id);
      if (blockIndex === blocks.length) {
        if (direction === 'asc') return;
        blockIndex--;
        position = blocks[blockIndex].length - 1;
      } else {
        const block = blocks[blockIndex];
        position = this.lowerBound(block, after.key, after.id);
        if (direction === 'desc') position--;
        else if (position < block.length && this.compare(after.key, after.id, block[position]) === 0)
          position++;
      }
    }
    if (direction === 'asc') {
      for (; blockIndex < blocks.length; blockIndex++, position = 0) {
        const block = blocks[blockIndex];
        for (; position < block.length; position++) yield block[position];
      }
    } else {
      for (; blockIndex >= 0; blockIndex--, position = blockIndex >= 0 ? blocks[blockIndex].length - 1 : 0) {
        const block = blocks[blockIndex];
        for (; position >= 0; position--) yield block[position];
      }
    }
  }

  private removeAt(blockIndex: number, position: number): void {
    const block = this.blocks[blockIndex];
    block.splice(position, 1);
    this.count--;
    if (block.length === 0) this.blocks.splice(blockIndex, 1);
  }

  /** Negative when (key, id) sorts before `item`, zero when it is `item`'s place. */
  private compare(key: string, id: string, item: T): number {
    return compareParts(key, id, this.key(item), item.id);
  }

  /** The first block whose last item is at or after (key, id); blocks.length when none is. */
  private blockFor(key: string, id: string): number {
    let low = 0;
    let high = this.blocks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const block = this.blocks[middle];
      if (this.compare(key, id, block[block.length - 1]) > 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first position in `block` at or after (key, id). */
  private lowerBound(block: T[], key: string, id: string): number {
    let low = 0;
    let high = block.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.compare(key, id, block[middle]) > 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Negative when (aKey, aId) sorts before (bKey, bId) ascending. */
export function compareParts(aKey: string, aId: string, bKey: string, bId: string): number {
  if (aKey !== bKey) return aKey < bKey ? -1 : 1;
  if (aId === bId) return 0;
  return aId < bId ? -1 : 1;
}

/** Two lists in the same order as one (a test key sees its simulated operations among the rest). */
export function* mergeLists<T extends { id: string }>(
  a: Iterable<T>,
  b: Iterable<T>,
  key: (item: T) => string,
  direction: Direction,
): Generator<T> {
  const sign = direction === 'asc' ? 1 : -1;
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  let x = left.next();
  let y = right.next();
  while (!x.done || !y.done) {
    const takeLeft =
      y.done || (!x.done && sign * compareParts(key(x.value), x.value.id, key(y.value), y.value.id) <= 0);
    if (takeLeft) {
      yield x.value as T;
      x = left.next();
    } else {
      yield y.value as T;
      y = right.next();
    }
  }
}

/** What one page of a list holds: its items, and whether more match after them. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** How a page picks its items from a list read in order. */
export interface PageQuery<T> {
  /** Items that do not pass are skipped. */
  filter?: (item: T) => boolean;
  /** The first item for which this is true ends the list (no later item can match). */
  stop?: (item: T) => boolean;
}

/** The first `limit` items of `items` that pass the query, and whether another follows. */
export function takePage<T>(items: Iterable<T>, limit: number, query: PageQuery<T> = {}): Page<T> {
  const { filter, stop } = query;
  const taken: T[] = [];
  for (const item of items) {
    if (stop?.(item)) break;
    if (filter && !filter(item)) continue;
    if (taken.length === limit) return { items: taken, hasMore: true };
    taken.push(item);
  }
  return { items: taken, hasMore: false };
}
