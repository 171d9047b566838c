/**
 * The store's live values, for comparing a file with them in memory that does not grow with
 * the file or the store (`inventory diff`, `push --changed-only`, `--backup`): a hash join on
 * disk. The read appends each SKU's values to one of P partition files chosen by a hash of the
 * SKU; the file's SKUs, in file order, go to the same partitions; then each partition in turn
 * holds only its file SKUs (a set of at most about ROWS_PER_PARTITION) and the store's values
 * of those, and writes one answer per file row, in file order. The comparison then asks the
 * SKUs in file order and each answer is the next line of its partition's answers.
 *
 * Every value crosses the disk as JSON and SKUs are matched by their text, so the comparison
 * is exact; a table in memory of a million SKUs (some 47 MB) next to the crawl's own peak was
 * over a push's 150 MB.
 */
import { appendFileSync, closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import whenExit from '../../config/exit-hooks.js';
import { type CheckedFile, inventoryBatches } from './check.js';
import type { LiveIndex } from './live-stock.js';
import type { StockValues } from './stock-table.js';

/** File rows a partition is meant to hold, whatever the file's length (up to MAX_PARTITIONS of them). */
const ROWS_PER_PARTITION = 16_384;
const MAX_PARTITIONS = 256;
/** Text gathered per partition before it is appended, and read from a partition at a time. */
const CHUNK = 16_384;

/** A store's values spooled to disk, partitioned by SKU for a file of `fileRows` rows. */
export class SpooledStock {
  /** SKUs read from the store (a SKU read twice counts twice; the later values win). */
  size = 0;
  /** The most file SKUs a partition held at once: what the join's memory follows. */
  mostHeld = 0;
  private readonly partitions: number;
  private readonly dir: string;
  private readonly unhook: () => void;
  /** Text not yet appended, by partition: of one kind at a time (the store's, the file's, the answers). */
  private readonly pending: string[];

  constructor(fileRows: number, rowsPerPartition = ROWS_PER_PARTITION) {
    let partitions = 1;
    while (partitions < MAX_PARTITIONS && partitions * rowsPerPartition < fileRows) partitions *= 2;
    this.partitions = partitions;
    this.pending = new Array<string>(partitions).fill('');
    const dir = mkdtempSync(join(tmpdir(), 'svc-stock-join-'));
    this.dir = dir;
    this.unhook = whenExit(() => rmSync(dir, { recursive: true, force: true }));
  }

  /** One SKU's values as the store has them. */
  set(sku: string, values: StockValues): void {
    this.size++;
    this.append(
      'store',
      partitionOf(sku, this.partitions),
      `${JSON.stringify([sku, values.quantity, values.price])}\n`,
    );
  }

  /**
   * The live values of the file's SKUs, to be asked in file order (what compareWithStore does):
   * each `get` answers the next row of the file, and refuses a SKU out of that order.
   */
  async inFileOrder(file: CheckedFile): Promise<LiveIndex> {
    this.flushAll('store');
    for await (const rows of inventoryBatches(file, 1000)) {
      for (const { sku } of rows)
        this.append('file', partitionOf(sku, this.partitions), `${JSON.stringify(sku)}\n`);
    }
    this.flushAll('file');
    for (let partition = 0; partition < this.partitions; partition++) this.answer(partition);
    const cursors = Array.from({ length: this.partitions }, (_, p) => new LineCursor(this.path('answer', p)));
    const { partitions } = this;
    return {
      size: this.size,
      get(sku: string): StockValues | undefined {
        const line = cursors[partitionOf(sku, partitions)].next();
        const answer =
          line === undefined
            ? undefined
            : (JSON.parse(line) as [string, number | null, string | null] | [string]);
        if (answer?.[0] !== sku) throw new Error(`the store's values were asked out of file order (${sku})`);
        return answer.length === 1 ? undefined : { quantity: answer[1], price: answer[2] };
      },
    };
  }

  /** Removes the partition files. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
    this.unhook();
  }

  /** One partition's answers: its file SKUs held in a map with the store's line of each, then one line a file row. */
  private answer(partition: number): void {
    const wanted = new Map<string, string>();
    eachLine(this.path('file', partition), (line) => wanted.set(JSON.parse(line) as string, ''));
    this.mostHeld = Math.max(this.mostHeld, wanted.size);
    eachLine(this.path('store', partition), (line) => {
      const sku = (JSON.parse(line) as [string])[0];
      // The line as read: the SKU, its quantity and price (a SKU read twice: the later line).
      if (wanted.has(sku)) wanted.set(sku, line);
    });
    eachLine(this.path('file', partition), (line) => {
      const sku = JSON.parse(line) as string;
      this.append('answer', partition, `${wanted.get(sku) || JSON.stringify([sku])}\n`);
    });
    this.flush('answer', partition);
    rmSync(this.path('store', partition), { force: true });
    rmSync(this.path('file', partition), { force: true });
  }

  private path(kind: 'store' | 'file' | 'answer', partition: number): string {
    return join(this.dir, `${kind}-${partition}`);
  }

  private append(kind: 'store' | 'file' | 'answer', partition: number, text: string): void {
    this.pending[partition] += text;
    if (this.pending[partition].length >= CHUNK) this.flush(kind, partition);
  }

  private flush(kind: 'store' | 'file' | 'answer', partition: number): void {
    // An empty append still makes the file, so that every partition has one to read.
    appendFileSync(this.path(kind, partition), this.pending[partition], { mode: 0o600 });
    this.pending[partition] = '';
  }

  private flushAll(kind: 'store' | 'file'): void {
    for (let partition = 0; partition < this.partitions; partition++) this.flush(kind, partition);
  }
}

/** Which partition a SKU falls in: FNV-1a over its UTF-16 units, mixed, masked (partitions are a power of 2). */
function partitionOf(sku: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < sku.length; i++) hash = Math.imul(hash ^ sku.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash ^= hash >>> 13;
  return (hash >>> 0) & (partitions - 1);
}

/** Every line of a file, read a chunk at a time. */
function eachLine(path: string, onLine: (line: string) => void): void {
  const cursor = new LineCursor(path);
  for (let line = cursor.next(); line !== undefined; line = cursor.next()) onLine(line);
}

/** The lines of a file one at a time, read a chunk at a time (opened for each chunk: no descriptor per partition held). */
class LineCursor {
  private position = 0;
  private lines: string[] = [];
  private at = 0;
  /** Bytes after the last whole line read (a line may run over chunks, a character too). */
  private carried = Buffer.alloc(0);
  private done = false;
  private readonly buffer = Buffer.alloc(CHUNK);

  constructor(private readonly path: string) {}

  next(): string | undefined {
    while (this.at === this.lines.length) {
      if (this.done) return undefined;
      this.refill();
    }
    return this.lines[this.at++];
  }

  private refill(): void {
    const fd = openSync(this.path, 'r');
    let count: number;
    try {
      count = readSync(fd, this.buffer, 0, CHUNK, this.position);
    } finally {
      closeSync(fd);
    }
    this.position += count;
    this.at = 0;
    this.lines = [];
    if (count === 0) {
      this.done = true;
      if (this.carried.length > 0) this.lines = [this.carried.toString('utf8')];
      return;
    }
    const end = this.buffer.lastIndexOf(10, count - 1);
    if (end < 0) {
      this.carried = Buffer.concat([this.carried, this.buffer.subarray(0, count)]);
      return;
    }
    const whole =
      this.carried.length > 0
        ? Buffer.concat([this.carried, this.buffer.subarray(0, end)])
        : this.buffer.subarray(0, end);
    this.lines = whole.toString('utf8').split('\n');
    this.carried = Buffer.from(this.buffer.subarray(end + 1, count));
  }
}
