/** What every seeding step shares: the generator, the id factory and the moment seeding starts. */
import type { IdFactory, Rng } from '../rng.js';

/** Shared state of one seeding run. */
export interface SeedContext {
  rng: Rng;
  ids: IdFactory;
  /** The clock's time when seeding started; every seeded timestamp is before it. */
  now: number;
  /**
   * The one copy of a text many records repeat (a title, a price, an issue's message): a store
   * of a million SKUs would otherwise keep a million copies of a few thousand texts.
   */
  text?: (value: string) => string;
}

/** A `text` function for one seeding run: the first copy of each text is kept and handed back. */
export function textInterner(): (value: string) => string {
  const kept = new Map<string, string>();
  return (value) => {
    const found = kept.get(value);
    if (found !== undefined) return found;
    kept.set(value, value);
    return value;
  };
}

/** The seeding run's one copy of `value`. */
export function shared(ctx: SeedContext, value: string): string {
  return ctx.text ? ctx.text(value) : value;
}

/** One minute in milliseconds. */
export const MINUTE_MS = 60_000;
/** One hour in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;
/** One day in milliseconds. */
export const DAY_MS = 24 * HOUR_MS;

/** A moment between `fromMs` and `toMs`, leaning towards `toMs` when `skew` > 1. */
export function timeBetween(ctx: SeedContext, fromMs: number, toMs: number, skew = 1): number {
  const span = Math.max(0, toMs - fromMs);
  const fraction = 1 - ctx.rng.next() ** skew;
  return Math.floor(toMs - span * fraction);
}
