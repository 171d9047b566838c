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
/** A quantity of null, and one kept beside the arrays (not a 32-bit integer): never a real int32 quantity's value. */
const NO_QUANTITY = -0x80000000;
const ELSEWHERE = -0x7fffffff;
/** UTF-8 bytes a SKU is guessed to take when the table is sized ahead. */
const GUESSED_SKU_BYTES = 16;
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

/**
 * SKU → quantity and price, open addressing over typed arrays; SKUs are UTF-8 in one arena.
 * About 30 bytes a SKU: 8 of slots, 12 of entry (start, quantity, price), the SKU's bytes.
 */
export class StockTable {
  private slots: Int32Array;
  private starts: Int32Array;
  /** A quantity as an int32; NO_QUANTITY for null, ELSEWHERE for one in `otherQuantities`. */
  private quantities: Int32Array;
  private priceIds: Int32Array;
  private arena: Uint8Array;
  private arenaUsed = 0;
  private count = 0;
  /** Quantities that are not 32-bit integers (none from a sane store), kept exactly. */
  private readonly otherQuantities = new Map<number, number>();
  /** Prices repeat across SKUs: each text is kept once (-1: none). */
  private readonly prices: string[] = [];
  private readonly priceIdOf = new Map<string, number>();

  /**
   * `expected`: how many SKUs it will likely hold (a push's file rows). Sized for them at once,
   * the arrays are not grown, and a growth's old and new arrays never stand side by side at the peak.
   */
  constructor(expected = 0) {
    const entries = Math.max(1 << 11, Math.ceil(expected * 1.02));
    let slots = 1 << 12;
    while (slots < entries * 2) slots *= 2;
    this.slots = new Int32Array(slots).fill(EMPTY);
    this.starts = new Int32Array(entries);
    this.quantities = new Int32Array(entries);
    this.priceIds = new Int32Array(entries);
    this.arena = new Uint8Array(Math.max(1 << 16, entries * GUESSED_SKU_BYTES));
  }

  /** Bytes its arrays take (what a million SKUs cost; the few price texts aside). */
  get byteLength(): number {
    return (
      this.slots.byteLength +
      this.starts.byteLength +
      this.quantities.byteLength +
      this.priceIds.byteLength +
      this.arena.byteLength
    );
  }

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
    this.setQuantity(entry, values.quantity);
    this.priceIds[entry] = this.priceId(values.price);
    return this;
  }

  /** A SKU's values; undefined when the store has no such SKU. */
  get(sku: string): StockValues | undefined {
    const entry = this.find(encoded(sku));
    if (entry === EMPTY) return undefined;
    const priceId = this.priceIds[entry];
    return { quantity: this.quantityOf(entry), price: priceId < 0 ? null : this.prices[priceId] };
  }

  private setQuantity(entry: number, quantity: number | null): void {
    this.otherQuantities.delete(entry);
    if (quantity === null) this.quantities[entry] = NO_QUANTITY;
    else if (
      (quantity | 0) === quantity &&
      quantity !== NO_QUANTITY &&
      quantity !== ELSEWHERE &&
      !Object.is(quantity, -0)
    )
      this.quantities[entry] = quantity;
    else {
      this.quantities[entry] = ELSEWHERE;
      this.otherQuantities.set(entry, quantity);
    }
  }

  private quantityOf(entry: number): number | null {
    const quantity = this.quantities[entry];
    if (quantity === NO_QUANTITY) return null;
    return quantity === ELSEWHERE ? (this.otherQuantities.get(entry) as number) : quantity;
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
      this.quantities = grown(this.quantities, capacity);
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
