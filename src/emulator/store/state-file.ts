/**
 * The store on disk (`svc emulator start --state DIR`): one JSON line per record after a
 * versioned header, closed by a line that counts them, so a file cut short is seen. Writing
 * goes to a temporary file, synced, then renamed over the old one: a crash leaves the old
 * state or the new one, never half of each. A million orders make about a gigabyte, so
 * records are written and read line by line, never as one string.
 */
import {
  closeSync,
  createReadStream,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AttributeRecord, CategoryRecord, PolicyRecord } from '../model.js';
import { IdFactory, Rng } from '../rng.js';
import type { Store, StoreContents } from './store.js';

/** The state format this emulator writes and the newest it reads. */
export const STATE_VERSION = 1;
/** The file inside the state directory. */
export const STATE_FILE = 'emulator-state.ndjson';
const FORMAT = 'svc-emulator-state';
// Lines are gathered into writes of about this many characters.
const WRITE_CHUNK = 1 << 20;

/** A state directory that cannot be used: unreadable, cut short, newer than this emulator, or not a directory. */
export class EmulatorStateError extends Error {
  override name = 'EmulatorStateError';
}

/** What a saved state holds besides the store: the seed its keys and simulations derive from. */
export interface SavedState {
  seed: number;
  contents: StoreContents;
}

/** Each kind of record saved one per line, and the store field (and loaded list) holding them. */
const RECORD_KINDS = {
  account: 'accounts',
  product: 'products',
  listing: 'listings',
  order: 'orders',
  operation: 'operations',
  test_operation: 'testOperations',
  event: 'events',
  webhook_endpoint: 'webhookEndpoints',
  file: 'files',
} as const;
type RecordKind = keyof typeof RECORD_KINDS;

interface Header {
  format: string;
  version: number;
  saved_at: string;
  seed: number;
  store_id: string;
  /** Where the id generator stood, so ids made after a restart are new ones. */
  ids: number;
}

/** Where the state of `dir` lives; creates the directory when missing, refuses a path that is not one. */
export function stateFile(dir: string): string {
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    isDirectory = undefined;
  }
  if (isDirectory === false) {
    throw new EmulatorStateError(
      `--state ${dir} is a file, not a directory; give a directory (it is created when missing).`,
    );
  }
  if (isDirectory === undefined) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new EmulatorStateError(`--state ${dir} cannot be created (${(error as Error).message}).`);
    }
  }
  return join(dir, STATE_FILE);
}

/** Write the store to `file` atomically (temporary file, fsync, rename); synchronous, so nothing changes meanwhile. */
function saveState(store: Store, seed: number, file: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  let pending = '';
  let records = 0;
  const line = (record: unknown) => {
    pending += `${JSON.stringify(record)}\n`;
    if (pending.length >= WRITE_CHUNK) {
      writeSync(fd, pending);
      pending = '';
    }
  };
  const many = (kind: string, items: Iterable<unknown>) => {
    for (const item of items) {
      line({ [kind]: item });
      records++;
    }
  };
  try {
    const header: Header = {
      format: FORMAT,
      version: STATE_VERSION,
      saved_at: new Date().toISOString(),
      seed,
      store_id: store.storeId,
      ids: store.ids.rng.position(),
    };
    line(header);
    for (const [kind, field] of Object.entries(RECORD_KINDS)) many(kind, store[field].values());
    many(
      'policies',
      [...store.policies].map(([account_id, data]) => ({ account_id, data })),
    );
    many(
      'taxonomy',
      [...store.taxonomies].map(([account_id, taxonomy]) => ({
        account_id,
        categories: taxonomy.categories,
        schemas: [...taxonomy.schemas],
      })),
    );
    line({ end: { records } });
    writeSync(fd, pending);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, file);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The state saved in `file`, or undefined when there is none; EmulatorStateError when it cannot be used. */
export async function loadState(file: string): Promise<SavedState | undefined> {
  let stream: ReturnType<typeof createReadStream>;
  try {
    statSync(file);
    stream = createReadStream(file, { encoding: 'utf8' });
  } catch {
    return undefined;
  }
  const refuse = (why: string, next = 'Move it away or start with another --state directory') =>
    new EmulatorStateError(`The emulator state ${file} ${why}. ${next}; it is never seeded over.`);
  const contents: Required<StoreContents> = {
    storeId: '',
    ids: new IdFactory(new Rng(0)),
    accounts: [],
    policies: new Map(),
    taxonomies: new Map(),
    products: [],
    listings: [],
    orders: [],
    operations: [],
    testOperations: [],
    events: [],
    webhookEndpoints: [],
    files: [],
  };
  let header: Header | undefined;
  let records = 0;
  let ended = false;
  let lineNumber = 0;
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
      lineNumber++;
      if (ended) throw refuse(`has more after its closing line (line ${lineNumber})`);
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(text);
      } catch {
        throw refuse(`is not readable: line ${lineNumber} is not JSON`);
      }
      if (header === undefined) {
        header = checkHeader(record, refuse);
        contents.storeId = header.store_id;
        contents.ids = new IdFactory(Rng.resume(header.ids));
        continue;
      }
      const [kind] = Object.keys(record);
      const value = record[kind] as never;
      if (kind === 'end') {
        if ((value as { records?: unknown }).records !== records)
          throw refuse(`is not complete: it counts other records than it holds`);
        ended = true;
        continue;
      }
      if (!take(contents, kind, value))
        throw refuse(`is not readable: line ${lineNumber} holds an unknown record "${kind}"`);
      records++;
    }
  } catch (error) {
    if (error instanceof EmulatorStateError) throw error;
    throw refuse(`is not readable (${(error as Error).message})`);
  } finally {
    stream.destroy();
  }
  if (header === undefined) throw refuse('is empty');
  if (!ended) throw refuse(`is not complete: it ends at line ${lineNumber} without its closing line`);
  return { seed: header.seed, contents };
}

function checkHeader(
  record: Record<string, unknown>,
  refuse: (why: string, next?: string) => EmulatorStateError,
): Header {
  const header = record as Partial<Header>;
  if (header.format !== FORMAT || !Number.isInteger(header.version) || (header.version as number) < 1) {
    throw refuse('is not an emulator state file (its first line is not the header this emulator writes)');
  }
  if ((header.version as number) > STATE_VERSION) {
    throw refuse(
      `was written by a newer svc (state version ${header.version}; this one reads up to ${STATE_VERSION})`,
      'Upgrade svc, or start with another --state directory',
    );
  }
  if (
    typeof header.store_id !== 'string' ||
    !Number.isInteger(header.seed) ||
    !Number.isInteger(header.ids)
  ) {
    throw refuse('is not readable: its header lacks the store id, the seed or the id generator');
  }
  return header as Header;
}

/** Add one saved record to `contents`; false for a kind this version does not know. */
function take(contents: Required<StoreContents>, kind: string, value: never): boolean {
  if (kind === 'policies') {
    const { account_id, data } = value as { account_id: string; data: PolicyRecord[] };
    contents.policies.set(account_id, data);
  } else if (kind === 'taxonomy') {
    const saved = value as {
      account_id: string;
      categories: CategoryRecord[];
      schemas: [string, AttributeRecord[]][];
    };
    contents.taxonomies.set(saved.account_id, {
      categories: saved.categories,
      schemas: new Map(saved.schemas),
    });
  } else if (Object.hasOwn(RECORD_KINDS, kind)) {
    (contents[RECORD_KINDS[kind as RecordKind]] as unknown[]).push(value);
  } else {
    return false;
  }
  return true;
}

/** Writes the store to its state file every `intervalMs` while anything changed, and once more at the end. */
export class StateKeeper {
  private savedRevision: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly seed: number,
    private readonly file: string,
    intervalMs: number,
    /** True when the store was just loaded from the file, so nothing needs writing yet. */
    loaded: boolean,
  ) {
    this.savedRevision = loaded ? store.revision() : -1;
    this.timer = setInterval(() => {
      try {
        this.save();
      } catch {
        // A full disk or a removed directory: the next tick, or the final save, tries again and reports.
      }
    }, intervalMs);
    this.timer.unref();
  }

  /** Write the state now if it changed since the last write. */
  save(): void {
    const revision = this.store.revision();
    if (revision === this.savedRevision) return;
    saveState(this.store, this.seed, this.file);
    this.savedRevision = revision;
  }

  /** Stop the timer and write a last time (errors are thrown: the stop reports them). */
  stop(): void {
    clearInterval(this.timer);
    this.save();
  }
}
