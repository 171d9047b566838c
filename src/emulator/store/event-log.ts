/** The base of the store: its clock, its ids and the event log every change is written to. */
import { type Clock, isoTime } from '../clock.js';
import type { EventRecord } from '../model.js';
import type { IdFactory } from '../rng.js';
import { IndexedMap } from './indexed-map.js';
import { Journal } from './journal.js';
import { snapshot } from './views.js';

/** The api_version events carry. */
export const EVENT_API_VERSION = '2025-01-15';

/** Time, ids and the event log of one emulated store. */
export class EventLog {
  readonly clock: Clock;
  /** Makes a request's writes all-or-nothing (`transaction`); every list of the store records to it. */
  readonly journal = new Journal();
  storeId = '';
  ids!: IdFactory;
  /** The event log, listed by created_at, newest first. */
  readonly events = new IndexedMap<EventRecord>({ key: (event) => event.created_at, direction: 'desc' });
  private readonly eventListeners = new Set<(event: EventRecord) => void>();

  constructor(clock: Clock) {
    this.clock = clock;
    this.events.journal = this.journal;
  }

  /** Run `work` with every write it makes undone when it throws (see Journal). */
  transaction<R>(work: () => R): R {
    return this.journal.transaction(work);
  }

  /** Inside a transaction, undo only what `work` wrote when it throws (one batch item). */
  savepoint<R>(work: () => R): R {
    return this.journal.savepoint(work);
  }

  /** The clock's time now. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Append an event with a snapshot of `object` as GET would return it now. `fixed`: the object
   * never changes after this (made for the event, or a terminal operation), so the event keeps
   * it as it is: a copy of each would cost some 600 bytes a changed SKU of a big push.
   */
  emitEvent(type: string, object: unknown, atMs = this.now(), { fixed = false } = {}): EventRecord {
    const event: EventRecord = {
      id: this.ids.next('evt'),
      object: 'event',
      type,
      api_version: EVENT_API_VERSION,
      store_id: this.storeId,
      created_at: isoTime(atMs),
      data: { object: fixed ? object : snapshot(object) },
    };
    this.events.set(event.id, event);
    this.journal.notify(() => {
      for (const listener of this.eventListeners) listener(event);
    });
    return event;
  }

  /** Be told of every event emitted from now on (webhook deliveries); returns how to stop. */
  onEvent(listener: (event: EventRecord) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }
}
