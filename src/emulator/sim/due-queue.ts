/** A binary min-heap of timed work, earliest `dueMs` first and `seq` breaking ties. */

/** Anything with a due time and an arrival order. */
export interface Due {
  dueMs: number;
  seq: number;
}

/** Push in any order; pop the earliest due item in O(log n). */
export class DueQueue<T extends Due> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!before(items[child], items[parent])) break;
      [items[child], items[parent]] = [items[parent], items[child]];
      child = parent;
    }
  }

  /** The earliest item if it is due by `nowMs`, removed from the queue. */
  popDue(nowMs: number): T | undefined {
    const items = this.items;
    if (items.length === 0 || items[0].dueMs > nowMs) return undefined;
    const top = items[0];
    const last = items.pop() as T;
    if (items.length > 0) {
      items[0] = last;
      let parent = 0;
      for (;;) {
        const left = parent * 2 + 1;
        const right = left + 1;
        let first = parent;
        if (left < items.length && before(items[left], items[first])) first = left;
        if (right < items.length && before(items[right], items[first])) first = right;
        if (first === parent) break;
        [items[parent], items[first]] = [items[first], items[parent]];
        parent = first;
      }
    }
    return top;
  }

  clear(): void {
    this.items = [];
  }
}

function before(a: Due, b: Due): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}
