/**
 * Resume journals of bulk pushes: which batches of which file the service confirmed, kept in
 * the config dir, keyed by the store (storeKey() of store-identity.ts: never the key) and the
 * file's content hash, written atomically, checked whole before it is trusted.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileIncomplete } from '../errors.js';
import { writeFileWhole } from '../write-whole.js';
import { makeDirectory } from './directory.js';

/** What a journal file holds. */
export interface JournalData {
  version: 1;
  kind: string;
  /** Absolute path of the file when the push started (to say "this file changed"). */
  path: string;
  sha256: string;
  /** storeKey() of the store pushed to. */
  identity: string;
  batch_size: number;
  total_batches: number;
  /** --map as given, or null: a resume must read the file the same way. */
  map: string | null;
  /** The encoding the file was read in (utf-8 for journals from before --encoding): a resume must read it so too. */
  encoding: string;
  /**
   * A push of only some rows (--changed-only): how many it sends, and the SHA-256 of the file
   * beside the journal that lists their lines. Absent or null: every row of the file.
   */
  selection?: { rows: number; sha256: string } | null;
  /** The file the first run wrote the store's values to before its first write (--backup). */
  backup?: string | null;
  /** The first run was allowed to zero what the zeroing guard counts (--allow-zeroing or a yes). */
  zeroing_accepted?: boolean;
  /** Confirmed batch indexes as sorted, disjoint inclusive ranges, e.g. [[0, 57], [59, 60]]. */
  confirmed: Array<[number, number]>;
  started_at: string;
  updated_at: string;
}

/** Adds one index to sorted inclusive ranges, merging neighbours. */
function addToRanges(ranges: Array<[number, number]>, index: number): Array<[number, number]> {
  const next: Array<[number, number]> = [];
  let placed = false;
  for (const [start, end] of ranges) {
    if (index >= start && index <= end) return ranges;
    if (!placed && index < start) {
      next.push([index, index]);
      placed = true;
    }
    next.push([start, end]);
  }
  if (!placed) next.push([index, index]);
  const merged: Array<[number, number]> = [];
  for (const range of next) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** Whether sorted, disjoint ranges hold `index` (binary search: a range may be huge). */
function rangesInclude(ranges: ReadonlyArray<readonly [number, number]>, index: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = ranges[middle];
    if (index < start) high = middle - 1;
    else if (index > end) low = middle + 1;
    else return true;
  }
  return false;
}

/** What a journal must agree with to be trusted: the file as checked now. */
export interface JournalExpectation {
  kind: string;
  sha256: string;
  rowCount: number;
  maxBatchSize: number;
}

/** Why `data` cannot be trusted, in a few words, or undefined when it can. */
function journalProblem(data: unknown, expected: JournalExpectation): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'not a JSON object';
  const j = data as Record<string, unknown>;
  if (j.version !== 1) return `version ${JSON.stringify(j.version)}`;
  if (j.kind !== expected.kind) return `kind ${JSON.stringify(j.kind)}`;
  if (j.sha256 !== expected.sha256) return 'another file content';
  if (typeof j.path !== 'string' || typeof j.identity !== 'string') return 'no path or identity';
  if (j.map !== undefined && j.map !== null && typeof j.map !== 'string') return 'map is not text';
  if (j.encoding !== undefined && typeof j.encoding !== 'string') return 'encoding is not text';
  const size = j.batch_size;
  if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > expected.maxBatchSize)
    return `batch_size ${JSON.stringify(size)}`;
  const selection = j.selection as { rows?: unknown; sha256?: unknown } | null | undefined;
  if (selection !== undefined && selection !== null) {
    const rows = selection.rows;
    if (typeof selection !== 'object' || typeof selection.sha256 !== 'string') return 'selection';
    if (!Number.isInteger(rows) || (rows as number) < 0 || (rows as number) > expected.rowCount)
      return `selection of ${JSON.stringify(rows)} rows (the file has ${expected.rowCount})`;
  }
  if (j.backup !== undefined && j.backup !== null && typeof j.backup !== 'string')
    return 'backup is not text';
  const total = Math.ceil((selection ? (selection.rows as number) : expected.rowCount) / (size as number));
  if (j.total_batches !== total) return `total_batches ${JSON.stringify(j.total_batches)}, not ${total}`;
  if (!Array.isArray(j.confirmed)) return `confirmed ${JSON.stringify(j.confirmed)}`;
  let after = -1;
  for (const range of j.confirmed) {
    const ok =
      Array.isArray(range) &&
      range.length === 2 &&
      Number.isInteger(range[0]) &&
      Number.isInteger(range[1]) &&
      range[0] > after &&
      range[0] <= range[1] &&
      range[1] < total;
    if (!ok) return `confirmed range ${JSON.stringify(range)} (the file has ${total} batches)`;
    after = range[1];
  }
  return undefined;
}

/** What is on disk for one push's key. */
export type JournalLookup =
  | { state: 'none' }
  | { state: 'damaged'; file: string; problem: string }
  | { state: 'found'; journal: Journal };

/** One journal on disk, saved at most every `saveEveryMs` while work goes on, and on flush. */
export class Journal {
  private dirty = false;
  private lastSave = 0;

  private constructor(
    readonly file: string,
    readonly data: JournalData,
    private readonly saveEveryMs: number,
  ) {}

  /** The journal file for this kind of push, file content and store; its lock and checked copy share the name. */
  static fileFor(dir: string, kind: string, sha256: string, identity: string): string {
    return join(dir, 'journals', `${kind}-${identity}-${sha256.slice(0, 32)}.json`);
  }

  /** The journal for this file content and store: none, damaged (and why), or found and sound. */
  static find(dir: string, identity: string, expected: JournalExpectation, saveEveryMs = 500): JournalLookup {
    const file = Journal.fileFor(dir, expected.kind, expected.sha256, identity);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'none' };
      throw error;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { state: 'damaged', file, problem: 'not JSON' };
    }
    const problem = journalProblem(data, expected);
    if (problem) return { state: 'damaged', file, problem };
    const sound = data as JournalData;
    sound.map ??= null;
    sound.encoding ??= 'utf-8';
    sound.selection ??= null;
    sound.backup ??= null;
    return { state: 'found', journal: new Journal(file, sound, saveEveryMs) };
  }

  /** Starts a new journal (replacing any for the same file and store). */
  static start(
    dir: string,
    init: Omit<JournalData, 'version' | 'confirmed' | 'started_at' | 'updated_at'>,
    now: Date,
    saveEveryMs = 500,
  ): Journal {
    const file = Journal.fileFor(dir, init.kind, init.sha256, init.identity);
    const data: JournalData = {
      version: 1,
      ...init,
      confirmed: [],
      started_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    const journal = new Journal(file, data, saveEveryMs);
    journal.save(now);
    return journal;
  }

  /** Journals of the same kind and store for `path` whose content hash differs (the file changed). */
  static staleFor(dir: string, kind: string, identity: string, path: string, sha256: string): JournalData[] {
    return Journal.all(dir, `${kind}-${identity}-`).filter(
      (data) => data.path === path && data.sha256 !== sha256,
    );
  }

  /** Every readable journal in `dir` (whose file name starts with `prefix`): the pushes that can resume. */
  static all(dir: string, prefix = ''): JournalData[] {
    const folder = join(dir, 'journals');
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return [];
    }
    return names
      .filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
      .flatMap((name) => {
        try {
          return [JSON.parse(readFileSync(join(folder, name), 'utf8')) as JournalData];
        } catch {
          return [];
        }
      });
  }

  get confirmedCount(): number {
    return this.data.confirmed.reduce((n, [start, end]) => n + end - start + 1, 0);
  }

  /** Whether batch `index` was confirmed. */
  isConfirmed(index: number): boolean {
    return rangesInclude(this.data.confirmed, index);
  }

  /** Records a confirmed batch; saves when the last save is old enough. */
  confirm(index: number, now: Date): void {
    this.data.confirmed = addToRanges(this.data.confirmed, index);
    this.dirty = true;
    if (now.getTime() - this.lastSave >= this.saveEveryMs) this.save(now);
  }

  /** Writes pending confirmations now (before exiting on quota, signal or error). */
  flush(now: Date): void {
    if (this.dirty) this.save(now);
  }

  /** Removes the journal: the push finished. */
  remove(): void {
    rmSync(this.file, { force: true });
  }

  private save(now: Date): void {
    this.data.updated_at = now.toISOString();
    makeDirectory(join(this.file, '..'));
    try {
      writeFileWhole(this.file, JSON.stringify(this.data), 0o600);
    } catch (error) {
      // The run stops on it (a resume reads only what was saved): named, never "unexpected".
      throw FileIncomplete.of('the resume journal', this.file, error);
    }
    this.dirty = false;
    this.lastSave = now.getTime();
  }
}
