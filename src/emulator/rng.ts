/** A small seeded PRNG, so seed data and generated ids are the same on every run. */

const ALPHABET_CODES = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', (c) =>
  c.charCodeAt(0),
);

/** Deterministic random numbers (mulberry32) with the helpers seeding needs. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    // Mix the seed so that nearby seeds do not give nearby first values.
    this.state = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ 0xc2b2ae35) >>> 0;
  }

  /** A generator that goes on exactly where one whose `position()` was `state` stood. */
  static resume(state: number): Rng {
    const rng = new Rng(0);
    rng.state = state >>> 0;
    return rng;
  }

  /** Where the generator stands, for `Rng.resume` (a saved state goes on making fresh ids). */
  position(): number {
    return this.state;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One element chosen by weight; weights need not sum to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  /** `length` characters of [A-Za-z0-9], after `prefix` if one is given. */
  token(length: number, prefix = ''): string {
    // Built from char codes in one go, prefix included: seeding makes millions, and a
    // concatenation would keep each as two strings and a pair (about 50 bytes more an id).
    const codes = new Array<number>(prefix.length + length);
    for (let i = 0; i < prefix.length; i++) codes[i] = prefix.charCodeAt(i);
    for (let i = prefix.length; i < codes.length; i++)
      codes[i] = ALPHABET_CODES[Math.floor(this.next() * ALPHABET_CODES.length)];
    return String.fromCharCode(...codes);
  }

  /** `length` decimal digits. */
  digits(length: number): string {
    const codes = new Array<number>(length);
    for (let i = 0; i < length; i++) codes[i] = 48 + Math.floor(this.next() * 10);
    return String.fromCharCode(...codes);
  }
}

/**
 * Makes prefixed ids (`prod_…`) from a seeded generator. 14 characters of 62 carry 83 bits,
 * so ids do not repeat without a set of every id ever made (a million orders would keep one).
 */
export class IdFactory {
  constructor(readonly rng: Rng) {}

  /** A fresh id such as `ord_4fK2mQ9xLr0aZt`. */
  next(prefix: string): string {
    return this.rng.token(14, `${prefix}_`);
  }
}

/** A number in [0, 1) from a string (FNV-1a, then an avalanche), the same on every run. */
export function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 4294967296;
}
