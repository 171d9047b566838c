/**
 * Seeded operations still `pending` or `processing` end a minute after the store was seeded,
 * so that `svc operations wait` on one returns. They are history, so no event is emitted.
 */
import { isoTime } from '../clock.js';
import type { Store } from '../store/store.js';

/** How long after seeding the seeded operations still under way take to end. */
const SEEDED_WORK_MS = 60_000;

/** Ends the seeded operations still under way, once. */
export class SeededWork {
  private open: string[] = [];
  private done = false;

  constructor(
    private readonly store: Store,
    private readonly seededAt: number,
  ) {
    this.reset();
  }

  /** Take note of the seeded operations under way again (after the store was reseeded). */
  reset(): void {
    this.done = false;
    this.open = [];
    for (const operation of this.store.operations.values()) {
      if (operation.status === 'pending' || operation.status === 'processing') this.open.push(operation.id);
    }
  }

  /** End them if their minute is up at `nowMs`. */
  advance(nowMs: number): void {
    const doneAt = this.seededAt + SEEDED_WORK_MS;
    if (this.done || nowMs < doneAt) return;
    this.done = true;
    for (const id of this.open) {
      const operation = this.store.operations.get(id);
      if (!operation || (operation.status !== 'pending' && operation.status !== 'processing')) continue;
      for (const result of operation.results) {
        if (result.status === 'pending' || result.status === 'processing') result.status = 'succeeded';
      }
      operation.status = 'succeeded';
      operation.completed_at = isoTime(doneAt);
    }
  }
}
