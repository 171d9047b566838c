/** What every seeding step shares: the generator, the id factory and the moment seeding starts. */
import type { IdFactory, Rng } from '../rng.js';

/** Shared state of one seeding run. */
export interface SeedContext {
  rng: Rng;
  ids: IdFactory;
  /** The clock's time when seeding started; every seeded timestamp is before it. */
  now: number;
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
