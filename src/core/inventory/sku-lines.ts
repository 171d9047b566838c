/**
 * The duplicate-SKU check of a file, in two steps. While the file is read, each SKU leaves
 * only a 64-bit fingerprint, appended to one of 256 small Int32Arrays chosen by its top bits
 * (8 bytes a SKU, written in order). Once the file is read, each array is searched for a
 * fingerprint seen twice with a table small enough to stay in the CPU's cache. Only when one
 * is found are the SKUs of those fingerprints read again and compared exactly, which finds the
 * true duplicates and the line each was first on.
 *
 * Keeping the SKUs themselves cost 60 to 70 MB and a third of a second for a million-row file
 * (as strings in a Map, or their characters in typed arrays), and one table of all the
 * fingerprints still 16 MB and 0.2 s: a million lookups at random places in it miss the cache.
 */

const PARTITION_BITS = 8;
const FIRST_CAPACITY = 64;

/** Fingerprints of the SKUs seen, with no heap object per SKU. */
export class SkuFingerprints {
  /** Pairs (high, low) of 32-bit halves, by the top bits of `high`. */
  private readonly partitions: Int32Array[] = [];
  private readonly filled: Int32Array;
  /** The fingerprint fingerprint() computed last: [high, low]. */
  private readonly last = new Int32Array(2);

  /** `hash` replaces both halves of the fingerprint, for tests that force collisions. */
  constructor(private readonly hash?: (sku: string) => number) {
    for (let i = 0; i < 1 << PARTITION_BITS; i++) this.partitions.push(new Int32Array(FIRST_CAPACITY));
    this.filled = new Int32Array(1 << PARTITION_BITS);
  }

  /** Notes the fingerprint of one more SKU. */
  add(sku: string): void {
    const { last } = this;
    this.fingerprint(sku);
    const high = last[0];
    const index = high >>> (32 - PARTITION_BITS);
    let partition = this.partitions[index];
    const at = this.filled[index];
    if (at === partition.length) {
      const bigger = new Int32Array(partition.length * 2);
      bigger.set(partition);
      this.partitions[index] = bigger;
      partition = bigger;
    }
    partition[at] = high;
    partition[at + 1] = last[1];
    this.filled[index] = at + 2;
  }

  /** The fingerprint of `sku` as `high:low`. */
  printOf(sku: string): string {
    this.fingerprint(sku);
    return `${this.last[0]}:${this.last[1]}`;
  }

  /** Writes the fingerprint of `sku` into `last` (typed, so that no number is boxed on the way). */
  private fingerprint(sku: string): void {
    if (this.hash) {
      this.last[0] = this.hash(sku);
      this.last[1] = this.last[0];
      return;
    }
    // Two 32-bit FNV-1a-style hashes over the UTF-16 code units, with different bases and
    // multipliers, each mixed by murmur3's finaliser so that every bit depends on every unit.
    let high = 0x811c9dc5;
    let low = 0x2f0ac5a1;
    for (let i = 0; i < sku.length; i++) {
      const unit = sku.charCodeAt(i);
      high = Math.imul(high ^ unit, 0x01000193);
      low = Math.imul(low ^ unit, 0x5bd1e995);
    }
    this.last[0] = mix(high ^ sku.length);
    this.last[1] = mix(low);
  }

  /** The fingerprints added more than once, as `high:low` (none for a file without duplicates). */
  repeated(): Set<string> {
    const found = new Set<string>();
    let most = 0;
    for (const count of this.filled) most = Math.max(most, count / 2);
    let size = 4;
    while (size < most * 2) size *= 2;
    // Slot i holds a pair at 2i, 2i + 1; a third cell marks it taken (a fingerprint may be 0:0).
    const table = new Int32Array(size * 3);
    const mask = size - 1;
    this.partitions.forEach((partition, index) => {
      const filled = this.filled[index];
      if (filled <= 2) return;
      table.fill(0);
      for (let at = 0; at < filled; at += 2) {
        const high = partition[at];
        const low = partition[at + 1];
        let slot = low & mask;
        for (;;) {
          if (table[slot * 3 + 2] === 0) {
            table[slot * 3] = high;
            table[slot * 3 + 1] = low;
            table[slot * 3 + 2] = 1;
            break;
          }
          if (table[slot * 3] === high && table[slot * 3 + 1] === low) {
            found.add(`${high}:${low}`);
            break;
          }
          slot = (slot + 1) & mask;
        }
      }
    });
    return found;
  }
}

/** murmur3's 32-bit finaliser. */
function mix(value: number): number {
  let hash = value;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/** A row of the file, as the exact check needs it. */
export interface SkuRow {
  line: number;
  sku: string;
}

/** A true duplicate: the row's line, its SKU, and the line the SKU was first on. */
export interface DuplicateRow extends SkuRow {
  first: number;
}

/**
 * The true duplicates among the rows whose fingerprint is `repeated`, given every valid row of
 * the file again in order: those rows' SKUs are compared exactly.
 */
export async function confirmDuplicates(
  repeated: ReadonlySet<string>,
  rowsAgain: AsyncIterable<SkuRow[]>,
  fingerprints: SkuFingerprints,
): Promise<DuplicateRow[]> {
  const firstLineOf = new Map<string, number>();
  const duplicates: DuplicateRow[] = [];
  for await (const rows of rowsAgain) {
    for (const { line, sku } of rows) {
      if (!repeated.has(fingerprints.printOf(sku))) continue;
      const first = firstLineOf.get(sku);
      if (first === undefined) firstLineOf.set(sku, line);
      else duplicates.push({ line, sku, first });
    }
  }
  return duplicates;
}
