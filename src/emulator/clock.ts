/** Time for the emulator: every timestamp, bucket, quota day and retention reads one clock. */

/** A source of the current time in Unix milliseconds. */
export interface Clock {
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to, for tests. */
export interface ManualClock extends Clock {
  /** Move forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Jump to an absolute Unix millisecond. */
  set(ms: number): void;
}

/** A manual clock starting at `startMs` (default 2025-06-15T12:00:00.000Z). */
export function createManualClock(startMs = Date.UTC(2025, 5, 15, 12, 0, 0, 0)): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

/** A Unix millisecond as the wire writes it: UTC ISO 8601 with milliseconds. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
