/**
 * Resume journals of bulk pushes: which batches of which file the service confirmed, kept
 * in the config dir, keyed by the file's content hash and the profile, written atomically.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a journal file holds. */
export interface JournalData {
  version: 1;
  kind: string;
  /** Absolute path of the file when the push started (to say "this file changed"). */
  path: string;
  sha256: string;
  identity: string;
  batch_size: number;
  total_batches: number;
  /** Confirmed batch indexes as inclusive ranges, e.g. [[0, 57], [59, 60]]. */
  confirmed: Array<[number, number]>;
  started_at: string;
  updated_at: string;
}

/** Who pushes: the profile, or the base URL and key prefix when they came from the environment. */
export function journalIdentity(parts: { profile?: string; baseUrl?: string; keyPrefix?: string }): string {
  return createHash('sha256')
    .update(`${parts.profile ?? ''}|${parts.baseUrl ?? ''}|${parts.keyPrefix ?? ''}`)
    .digest('hex')
    .slice(0, 16);
}

/** Adds one index to a sorted list of inclusive ranges, merging neighbours. */
export function addToRanges(ranges: Array<[number, number]>, index: number): Array<[number, number]> {
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
  // merge adjacent ranges
  const merged: Array<[number, number]> = [];
  for (const range of next) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** Every index covered by the ranges. */
export function rangesToSet(ranges: Array<[number, number]>): Set<number> {
  const set = new Set<number>();
  for (const [start, end] of ranges) for (let i = start; i <= end; i++) set.add(i);
  return set;
}

/** One journal on disk, saved at most every `saveEveryMs` while work goes on, and on flush. */
export class Journal {
  private dirty = false;
  private lastSave = 0;

  private constructor(
    private readonly file: string,
    readonly data: JournalData,
    private readonly saveEveryMs: number,
  ) {}

  /** The journal file for this kind of push, file content and identity. */
  static fileFor(dir: string, kind: string, sha256: string, identity: string): string {
    return join(dir, 'journals', `${kind}-${identity}-${sha256.slice(0, 32)}.json`);
  }

  /** Loads an existing journal, or undefined. */
  static load(
    dir: string,
    kind: string,
    sha256: string,
    identity: string,
    saveEveryMs = 500,
  ): Journal | undefined {
    const file = Journal.fileFor(dir, kind, sha256, identity);
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as JournalData;
      return data.version === 1 && data.sha256 === sha256 ? new Journal(file, data, saveEveryMs) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Starts a new journal (replacing any for the same file and identity). */
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

  /** Journals of the same kind and identity for `path` whose content hash differs (the file changed). */
  static staleFor(dir: string, kind: string, identity: string, path: string, sha256: string): JournalData[] {
    const folder = join(dir, 'journals');
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return [];
    }
    return names
      .filter((name) => name.startsWith(`${kind}-${identity}-`) && name.endsWith('.json'))
      .flatMap((name) => {
        try {
          return [JSON.parse(readFileSync(join(folder, name), 'utf8')) as JournalData];
        } catch {
          return [];
        }
      })
      .filter((data) => data.path === path && data.sha256 !== sha256);
  }

  get confirmedCount(): number {
    return this.data.confirmed.reduce((n, [start, end]) => n + end - start + 1, 0);
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
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.data), { mode: 0o600 });
    renameSync(temp, this.file);
    this.dirty = false;
    this.lastSave = now.getTime();
  }
}
