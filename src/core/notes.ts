/**
 * What a use case tells the person running it while it works, without printing: the command
 * hands in its messages (stderr, quiet with -q) and a progress line of its own.
 */

/** Lines said while the work goes on. */
export interface Notes {
  info(line: string): void;
  warn(line: string): void;
}

/** A count of work done, shown while it goes. */
interface Tracker {
  update(done: number): void;
  stop(): void;
}

/** Starts a count of `total` things (`noun`: "SKUs read") shown while the work goes. */
export type Track = (what: { total: number; noun: string }) => Promise<Tracker>;
