/**
 * The live quantity and price of every SKU of a store, kept in typed arrays: a million SKUs
 * in some 40 MB, where a Map of strings to objects takes three times that. Lookups are exact
 * (a SKU is compared by its text, not by a hash alone), so a changed-only push and a diff
 * decide from the store's values themselves.
 */

/** A SKU's values as the store has them; null where the store has no value. */
export interface StockValues {
  quantity: number | null;
  price: string | null;
}

const EMPTY = -1;
const encoder = new TextEncoder();
/** Where a SKU is encoded for a lookup: one buffer reused, not a new one (off the heap) per call. */
let scratch = new Uint8Array(256);

/** A view of `sku`'s UTF-8 bytes in the scratch buffer, valid until the next call. */
function encoded(sku: string): Uint8Array {
  // A UTF-16 unit is at most 3 bytes of UTF-8.
  if (sku.length * 3 > scratch.length) scratch = new Uint8Array(sku.length * 3);
  const { written } = encoder.encodeInto(sku, scratch);
  return scratch.subarray(0, written);
}
const decoder = new TextDecoder();

/** SKU → quantity and price, open addressing over typed arrays; SKUs are UTF-8 in one arena. */
export class StockTable {
  private slots = new Int32Array(1 << 12).fill(EMPTY);
  private starts = new Int32Array(1 << 11);
  private quantities = new Float64Array(1 << 11);
  private priceIds = new Int32Array(1 << 11);
  private arena = new Uint8Array(1 << 16);
  private arenaUsed = 0;
  private count = 0;
  /** Prices repeat across SKUs: each text is kept once (-1: none). */
  private readonly prices: string[] = [];
  private readonly priceIdOf = new Map<string, number>();

  /** How many SKUs it holds. */
  get size(): number {
    return this.count;
  }

  /** Set a SKU's values (a SKU read twice keeps the later ones). */
  set(sku: string, values: StockValues): this {
    const bytes = encoded(sku);
    let entry = this.find(bytes);
    if (entry === EMPTY) {
      if ((this.count + 1) * 2 > this.slots.length) this.grow();
      entry = this.append(bytes);
      this.slots[this.slotFor(bytes)] = entry;
    }
    // NaN stands for no quantity: a store's quantity is a number or null.
    this.quantities[entry] = values.quantity === null ? Number.NaN : values.quantity;
    this.priceIds[entry] = this.priceId(values.price);
    return this;
  }

  /** A SKU's values; undefined when the store has no such SKU. */
  get(sku: string): StockValues | undefined {
    const entry = this.find(encoded(sku));
    if (entry === EMPTY) return undefined;
    const quantity = this.quantities[entry];
    const priceId = this.priceIds[entry];
    return {
      quantity: Number.isNaN(quantity) ? null : quantity,
      price: priceId < 0 ? null : this.prices[priceId],
    };
  }

  /** Every SKU with its values, in the order first set. */
  *entries(): Generator<[string, StockValues]> {
    for (let entry = 0; entry < this.count; entry++) {
      const start = this.starts[entry];
      const sku = decoder.decode(this.arena.subarray(start, this.endOf(entry)));
      yield [sku, this.get(sku) as StockValues];
    }
  }

  private priceId(price: string | null): number {
    if (price === null) return -1;
    let id = this.priceIdOf.get(price);
    if (id === undefined) {
      id = this.prices.length;
      this.prices.push(price);
      this.priceIdOf.set(price, id);
    }
    return id;
  }

  /** The entry of a SKU, or EMPTY. */
  private find(bytes: Uint8Array): number {
    const mask = this.slots.length - 1;
    for (let slot = hash(bytes) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === EMPTY || this.holds(entry, bytes)) return entry;
    }
  }

  /** The first free slot of a SKU's probe sequence. */
  private slotFor(bytes: Uint8Array): number {
    const mask = this.slots.length - 1;
    let slot = hash(bytes) & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    return slot;
  }

  /** Where a SKU's bytes end: where the next one's start (the arena only grows at its end). */
  private endOf(entry: number): number {
    return entry + 1 < this.count ? this.starts[entry + 1] : this.arenaUsed;
  }

  private holds(entry: number, bytes: Uint8Array): boolean {
    const start = this.starts[entry];
    if (this.endOf(entry) - start !== bytes.length) return false;
    for (let index = 0; index < bytes.length; index++) {
      if (this.arena[start + index] !== bytes[index]) return false;
    }
    return true;
  }

  private append(bytes: Uint8Array): number {
    const entry = this.count++;
    if (entry === this.starts.length) {
      // Half again, not twice: at a million SKUs the slack is what a doubling would waste.
      const capacity = Math.ceil(entry * 1.5);
      this.starts = grown(this.starts, capacity);
      const quantities = new Float64Array(capacity);
      quantities.set(this.quantities);
      this.quantities = quantities;
      this.priceIds = grown(this.priceIds, capacity);
    }
    if (this.arenaUsed + bytes.length > this.arena.length) {
      const bigger = new Uint8Array(
        Math.max(Math.ceil(this.arena.length * 1.5), this.arenaUsed + bytes.length),
      );
      bigger.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = bigger;
    }
    this.arena.set(bytes, this.arenaUsed);
    this.starts[entry] = this.arenaUsed;
    this.arenaUsed += bytes.length;
    return entry;
  }

  /** Twice the slots, every entry placed again. */
  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    for (let entry = 0; entry < this.count; entry++) {
      const start = this.starts[entry];
      this.slots[this.slotFor(this.arena.subarray(start, this.endOf(entry)))] = entry;
    }
  }
}

function grown(array: Int32Array, capacity: number) {
  const bigger = new Int32Array(capacity);
  bigger.set(array);
  return bigger;
}

/** FNV-1a over the bytes, then an avalanche so nearby SKUs spread over the table. */
function hash(bytes: Uint8Array): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < bytes.length; index++) {
    value ^= bytes[index];
    value = Math.imul(value, 0x01000193);
  }
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  return value >>> 0;
}
