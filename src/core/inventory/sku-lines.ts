/**
 * The first line of every SKU of a file, for the duplicate check. A Map of a million SKU
 * strings took about a second and 70 MB of a million-row check, mostly in promoting the strings
 * through the garbage collector; here the SKUs' characters and an open-addressing table live in
 * a few typed arrays, and a hash match is confirmed by comparing the characters.
 */

const EMPTY = -1;

/** SKU → first line, without one heap object per SKU. */
export class SkuLines {
  /** Slot → index of the entry in the columns below, or EMPTY. */
  private slots = new Int32Array(1 << 12).fill(EMPTY);
  private hashes = new Int32Array(1 << 11);
  private starts = new Float64Array(1 << 11);
  private lengths = new Int32Array(1 << 11);
  private lines = new Int32Array(1 << 11);
  private chars = new Uint16Array(1 << 16);
  private charCount = 0;
  private count = 0;

  constructor(private readonly hash: (sku: string) => number = fnv1a) {}

  /** How many distinct SKUs were added. */
  get size(): number {
    return this.count;
  }

  /** Records `sku` at `line` and returns undefined, or returns the line it was first added on. */
  addOrGet(sku: string, line: number): number | undefined {
    const hash = this.hash(sku) | 0;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === EMPTY) break;
      if (this.hashes[entry] === hash && this.sameChars(entry, sku)) return this.lines[entry];
    }
    this.append(sku, hash, line);
    return undefined;
  }

  private sameChars(entry: number, sku: string): boolean {
    if (this.lengths[entry] !== sku.length) return false;
    const start = this.starts[entry];
    for (let i = 0; i < sku.length; i++) if (this.chars[start + i] !== sku.charCodeAt(i)) return false;
    return true;
  }

  private append(sku: string, hash: number, line: number): void {
    if (this.count === this.lines.length) this.growEntries();
    if (this.charCount + sku.length > this.chars.length) {
      this.chars = grown(this.chars, Math.max(this.chars.length * 2, this.charCount + sku.length));
    }
    const entry = this.count++;
    this.hashes[entry] = hash;
    this.starts[entry] = this.charCount;
    this.lengths[entry] = sku.length;
    this.lines[entry] = line;
    for (let i = 0; i < sku.length; i++) this.chars[this.charCount + i] = sku.charCodeAt(i);
    this.charCount += sku.length;
    this.place(entry);
  }

  /** Entries double, and the table with them, so it stays at most half full. */
  private growEntries(): void {
    const capacity = this.lines.length * 2;
    this.hashes = grown(this.hashes, capacity);
    this.starts = grown(this.starts, capacity);
    this.lengths = grown(this.lengths, capacity);
    this.lines = grown(this.lines, capacity);
    this.slots = new Int32Array(capacity * 2).fill(EMPTY);
    for (let entry = 0; entry < this.count; entry++) this.place(entry);
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[entry] & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
  }
}

function grown<T extends Int32Array | Float64Array | Uint16Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}

/** FNV-1a over the UTF-16 code units, mixed so that the low bits (the slot) spread well. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash ^ (hash >>> 15);
}
