/** A SharedStore in memory, for pacers that play separate processes under one fake clock. */
import type { SharedStore } from '../../../../src/client/pacing/record-file.js';
import { emptyRecord, parseRecord, type SharedRecord } from '../../../../src/client/pacing/shared-record.js';

/** What the processes share: the record as text (as on disk) and which pids live. */
export class MemoryDisk {
  text = '';
  readonly alive = new Set<number>();
  /** Transactions so far. */
  writes = 0;

  constructor(
    readonly now: () => number,
    readonly bucketId = 'b'.repeat(32),
    /** For stalls: the clock's sleep. */
    readonly sleep?: (ms: number) => Promise<void>,
  ) {}

  /** The store of one process. */
  store(pid: number): MemoryStore {
    this.alive.add(pid);
    return new MemoryStore(this, pid);
  }

  read(): SharedRecord {
    return parseRecord(this.text, this.bucketId, this.now()) ?? emptyRecord(this.bucketId, this.now());
  }
}

export class MemoryStore implements SharedStore {
  readonly where = 'memory';
  /** Set to make every transaction fail, as an unwritable config dir would. */
  failing?: Error;
  /** Milliseconds the n-th transaction waits before it runs (a busy event loop, a lock held). */
  stall?: (n: number) => number;
  private transactions = 0;

  constructor(
    private readonly disk: MemoryDisk,
    readonly pid: number,
  ) {}

  isAlive(pid: number): boolean {
    return this.disk.alive.has(pid);
  }

  async peek(): Promise<SharedRecord> {
    return this.disk.read();
  }

  async transact<T>(change: (record: SharedRecord) => T): Promise<T> {
    // Another process may get the lock first.
    await Promise.resolve();
    const stalled = this.stall?.(this.transactions++) ?? 0;
    if (stalled > 0) await this.disk.sleep?.(stalled);
    if (this.failing) throw this.failing;
    const record = this.disk.read();
    const result = change(record);
    record.updatedAt = this.disk.now();
    this.disk.text = JSON.stringify(record);
    this.disk.writes += 1;
    return result;
  }
}
