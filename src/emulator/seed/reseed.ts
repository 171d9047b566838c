/**
 * The seed a reset loads: the same options every time, so it is made once and handed out as
 * copies (a copy takes a fifth of a seeding). The kept one is never loaded, so nothing a store
 * does changes it; a copy goes on making ids exactly where the seeding left its generator.
 * Only a store of test size is kept: a big one (the 270,000-product store of the memory bench)
 * would be held twice, so its reset seeds again.
 */
import { IdFactory, Rng } from '../rng.js';
import { type SeedData, type SeedOptions, seedData } from './seed.js';

/** Products and orders up to which a seed is kept for resets. */
const KEPT_UP_TO = 5_000;

/** Seed data made once for `options`, given out as fresh copies. */
export class Reseeder {
  private kept?: SeedData;

  constructor(private readonly options: SeedOptions) {}

  /** A copy of the seed: equal to seedData(options), sharing nothing with the store's last one. */
  fresh(): SeedData {
    if (this.options.products + this.options.orders > KEPT_UP_TO) return seedData(this.options);
    this.kept ??= seedData(this.options);
    const { rng: keptRng, ids: _ids, ...records } = this.kept;
    const rng = Rng.resume(keptRng.position());
    return { ...copied(records), rng, ids: new IdFactory(rng) };
  }
}

/**
 * A deep copy of plain records, arrays and Maps. Parts the seeding shares between records come
 * out as copies of their own (the store replaces such parts, never changes them in place).
 */
function copied<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copied) as T;
  const kind = (value as object).constructor;
  if (kind === Map) {
    return new Map(
      [...(value as unknown as Map<unknown, unknown>)].map(([key, item]) => [key, copied(item)]),
    ) as T;
  }
  if (kind !== Object && kind !== undefined) {
    // A class instance would lose its methods here: say so instead of handing out a broken store.
    throw new Error(`a seed record holds a ${kind.name}: copy it in reseed.ts`);
  }
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copied(value[key]);
  return copy as T;
}
