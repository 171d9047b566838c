/**
 * What `events listen` has forwarded: a watermark and the ids seen near it, so that each
 * event goes out once however many polls return it, including events sharing a timestamp.
 */
import type { RawEvent } from '../../client/resources/events.js';

/** Events oldest first: created_at, then id, duplicates (same id) dropped. */
export function oldestFirst<T extends { id: string; created_at: string }>(events: Iterable<T>): T[] {
  const unique = new Map<string, T>();
  for (const event of events) if (!unique.has(event.id)) unique.set(event.id, event);
  return [...unique.values()].sort((a, b) =>
    a.created_at === b.created_at
      ? a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : 0
      : a.created_at < b.created_at
        ? -1
        : 1,
  );
}

/** The poll window and the dedup set of a listening session. */
export class EventTracker {
  private watermarkMs: number | undefined;
  private readonly seen = new Map<string, number>();

  /**
   * `floor`: never ask for events before it (--since). `lookbackMs`: how far behind the newest
   * forwarded event each poll looks again, for events the service records a little late.
   */
  constructor(
    private readonly floor: string | undefined,
    private readonly lookbackMs: number,
  ) {}

  /** The `created_after` of the next poll, or undefined for the whole log. */
  createdAfter(): string | undefined {
    if (this.watermarkMs === undefined) return this.floor;
    const from = this.watermarkMs - this.lookbackMs;
    const floorMs = this.floor === undefined ? Number.NEGATIVE_INFINITY : Date.parse(this.floor);
    return new Date(Math.max(from, floorMs)).toISOString();
  }

  /** The events of a poll not handled yet, oldest first. */
  fresh(events: Iterable<RawEvent>): RawEvent[] {
    return oldestFirst(events).filter((event) => !this.seen.has(event.id));
  }

  /** Whether this id was handled. */
  has(id: string): boolean {
    return this.seen.has(id);
  }

  /** Marks an event handled (delivered, given up on, or there before listening began). */
  done(event: { id: string; created_at: string }): void {
    const at = Date.parse(event.created_at);
    this.seen.set(event.id, at);
    if (this.watermarkMs === undefined || at > this.watermarkMs) {
      this.watermarkMs = at;
      // Ids older than the poll window cannot come back; forget them so memory stays flat.
      const horizon = at - this.lookbackMs;
      for (const [id, seenAt] of this.seen) if (seenAt < horizon) this.seen.delete(id);
    }
  }

  /** How many ids are remembered (for tests). */
  get size(): number {
    return this.seen.size;
  }
}
