/**
 * A Map of records by id that also keeps them in list order (a SortedIndex by sort key and
 * id) and, for the equality filters that select a small share, one sorted index per value.
 * Writes keep every index right: `set` and `delete` as on any Map, and `update` around any
 * change to a record's sort key or indexed fields. Reads stay those of a Map.
 */

import type { Journal } from './journal.js';
import {
  type Direction,
  type ListPosition,
  type Page,
  type PageQuery,
  SortedIndex,
  takePage,
} from './sorted-index.js';

/** The values a record is indexed under for one field (none, one, or several). */
export type FieldValues<T> = (item: T) => string | readonly string[] | undefined;

/** How a list is ordered and which of its filters have an index. */
export interface ListSpec<T> {
  /** The sort key (ISO timestamps sort as strings); ties are broken by id. */
  key: (item: T) => string;
  direction: Direction;
  fields?: Record<string, FieldValues<T>>;
  /**
   * Equality filters served from a few records the owner already groups (a product's
   * listings): the records under a value, in any order; no index of their own is kept.
   */
  lookups?: Record<string, (value: string) => readonly T[]>;
}

/** An equality filter: a field and the value asked for (undefined when the request has none). */
export type Where = readonly [field: string, value: string | undefined];

/** A Map of records that keeps them sorted for paging. */
export class IndexedMap<T extends { id: string }> extends Map<string, T> {
  readonly spec: ListSpec<T>;
  private readonly order: SortedIndex<T>;
  private readonly byField = new Map<
    string,
    { values: FieldValues<T>; indexes: Map<string, SortedIndex<T>> }
  >();
  /** Counts every write, so a saver can tell whether anything changed. */
  revision = 0;
  /** Where writes record their undo while a transaction is open (the store sets it). */
  journal: Journal | undefined;

  constructor(spec: ListSpec<T>) {
    super();
    this.spec = spec;
    this.order = new SortedIndex(spec.key);
    for (const [field, values] of Object.entries(spec.fields ?? {})) {
      this.byField.set(field, { values, indexes: new Map() });
    }
  }

  override set(id: string, item: T): this {
    const previous = super.get(id);
    if (this.journal?.recording)
      this.journal.record(() => (previous ? this.set(id, previous) : this.delete(id)));
    if (previous) this.unindex(previous);
    super.set(id, item);
    this.index(item);
    this.revision++;
    return this;
  }

  override delete(id: string): boolean {
    const previous = super.get(id);
    if (!previous) return false;
    if (this.journal?.recording) this.journal.record(() => this.set(id, previous));
    this.unindex(previous);
    this.revision++;
    return super.delete(id);
  }

  override clear(): void {
    super.clear();
    this.order.loadSorted([]);
    for (const field of this.byField.values()) field.indexes.clear();
    this.revision++;
  }

  /** Fill an empty map with many records at once: one sort, not one insert each. */
  load(items: readonly T[]): void {
    if (this.size > 0) throw new Error('IndexedMap.load needs an empty map');
    // No copy of a million records to hold them here: the sort below makes the one it needs.
    for (const item of items) super.set(item.id, item);
    this.order.load(items);
    // The per-value indexes take the records in sorted order, so they need no sort of their own.
    const sorted = [...this.order];
    for (const { values, indexes } of this.byField.values()) {
      const buckets = new Map<string, T[]>();
      for (const item of sorted) {
        for (const value of valuesOf(values, item)) {
          const bucket = buckets.get(value);
          if (bucket) bucket.push(item);
          else buckets.set(value, [item]);
        }
      }
      for (const [value, bucket] of buckets) {
        const index = new SortedIndex(this.spec.key);
        index.loadSorted(bucket);
        indexes.set(value, index);
      }
    }
    this.revision++;
  }

  /**
   * Change a record held here: `change` runs with the record out of every index and it goes
   * back in after, under its new key and values. A record not held here (a test key's copy)
   * is only changed.
   */
  update<R>(item: T, change: () => R): R {
    if (super.get(item.id) !== item) return change();
    if (this.journal?.recording) {
      const before = structuredClone(item);
      this.journal.record(() => this.update(item, () => restore(item, before)));
    }
    this.unindex(item);
    try {
      return change();
    } finally {
      this.index(item);
      this.revision++;
    }
  }

  /**
   * The records after `after` in list order that can match every `where` pair, read from
   * the smallest index that covers one of them (the caller still filters on all of them).
   */
  scan(after: ListPosition | null, where: readonly Where[] = []): Iterable<T> {
    let source: SortedIndex<T> = this.order;
    for (const [field, value] of where) {
      if (value === undefined) continue;
      const lookup = this.spec.lookups?.[field];
      if (lookup) {
        const few = new SortedIndex(this.spec.key);
        few.load([...lookup(value)]);
        return few.from(this.spec.direction, after);
      }
      const indexes = this.byField.get(field)?.indexes;
      if (!indexes) continue;
      const index = indexes.get(value);
      if (!index) return [];
      if (index.size < source.size) source = index;
    }
    return source.from(this.spec.direction, after);
  }

  /** One page: `scan`, then the query's filter and stop. */
  page(after: ListPosition | null, limit: number, where: readonly Where[], query: PageQuery<T>): Page<T> {
    return takePage(this.scan(after, where), limit, query);
  }

  /** How many records are indexed under `value` of `field`. */
  countOf(field: string, value: string): number {
    return this.byField.get(field)?.indexes.get(value)?.size ?? 0;
  }

  private index(item: T): void {
    this.order.insert(item);
    for (const { values, indexes } of this.byField.values()) {
      for (const value of valuesOf(values, item)) {
        let index = indexes.get(value);
        if (!index) {
          index = new SortedIndex(this.spec.key);
          indexes.set(value, index);
        }
        index.insert(item);
      }
    }
  }

  private unindex(item: T): void {
    this.order.remove(item);
    for (const { values, indexes } of this.byField.values()) {
      for (const value of valuesOf(values, item)) {
        const index = indexes.get(value);
        if (!index) continue;
        index.remove(item);
        if (index.size === 0) indexes.delete(value);
      }
    }
  }
}

/** Put a record back as it was, in place (other structures hold it by reference). */
function restore<T extends object>(item: T, before: T): void {
  for (const key of Object.keys(item)) if (!Object.hasOwn(before, key)) delete item[key as keyof T];
  Object.assign(item, before);
}

function valuesOf<T>(values: FieldValues<T>, item: T): readonly string[] {
  const found = values(item);
  if (found === undefined) return [];
  if (typeof found === 'string') return [found];
  // Several issues of one code index the listing once.
  return found.length > 1 ? [...new Set(found)] : found;
}
