/**
 * Which store a pacer shares its key's record through (pacer.ts): the primary (Redis across
 * machines, or this machine's state file), the fallback while a primary that comes back is
 * away (Redis lost: the state file), or none (the pacer paces alone until the primary is back).
 */
import type { SharedStore } from './record-file.js';

/** The store to share through from now on, and since when its record may know less than the pacer. */
export interface StoreTurn {
  store?: SharedStore;
  /** A record last written before this (ms) is older than what the pacer learned elsewhere. */
  staleBefore?: number;
}

/** The primary and fallback stores of one pacer, and whether the primary is left. */
export class StoreChoice {
  /** Since when the primary is left, while it is. */
  private primaryLeftAt?: number;

  constructor(
    readonly primary?: SharedStore,
    private readonly fallback?: SharedStore,
  ) {}

  /** Where to share once `failed` failed at `now`: the fallback for a primary that comes back, else nowhere. */
  afterFailure(failed: SharedStore, now: number): StoreTurn {
    const comesBack = failed === this.primary && this.primary.available !== undefined;
    if (comesBack || failed === this.fallback) this.primaryLeftAt ??= now;
    // What the fallback holds may be older than what the pacer learned through the primary.
    if (comesBack && this.fallback) return { store: this.fallback, staleBefore: this.primaryLeftAt };
    return {};
  }

  /** The primary, once it is back after it failed (then nothing until it fails again). */
  primaryBack(): StoreTurn | undefined {
    const leftAt = this.primaryLeftAt;
    if (leftAt === undefined || !this.primary?.available?.()) return undefined;
    this.primaryLeftAt = undefined;
    // Others may have written its record meanwhile; one older than our leaving knows less than we do.
    return { store: this.primary, staleBefore: leftAt };
  }
}
