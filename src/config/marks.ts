/**
 * Incremental-sync marks: where the last `orders list --since-last NAME` export ended, one
 * JSON file per name in `<config dir>/marks/`, replaced atomically (temp file + rename) so
 * that a crash mid-write leaves the previous mark whole.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { FileError, UsageError } from '../errors.js';
import { makeDirectory } from './directory.js';
import { LockFile, underLock } from './lock-file.js';
import { describeAccounts, type MarkStore, normalBaseUrl, sameMarkStore } from './store-identity.js';

/** Where an incremental export ended, by the service's clock. */
export interface ExportMark {
  /** Passed as `created_after` next time (UTC ISO 8601). */
  createdAfter: string;
  /**
   * Orders already exported whose `created_at` is at or after `createdAfter`: `created_after`
   * is inclusive, so the next export sees them again and must skip them.
   */
  boundaryIds: string[];
  /** The list filters the export ran with; a later run under the same name must use the same. */
  filters: Record<string, string>;
  /** The service the mark belongs to. */
  baseUrl?: string;
  /** The store the mark belongs to; absent in marks saved before stores were told apart. */
  store?: SavedStore;
  /** Orders the export that saved this mark printed. */
  exported: number;
  /** When that export finished, by the service's clock. */
  savedAt: string;
}

/**
 * The store as a mark names it: its channel accounts, or, when the key that saved it could not
 * list them (and in marks of earlier versions), a hash of that key and the base URL.
 */
export interface SavedStore {
  baseUrl: string;
  channelAccounts?: string[];
  keyHash?: string;
  /** Kept from marks of earlier versions; not compared. */
  profile?: string;
}

const MARK_FILE = z.object({
  version: z.literal(1),
  created_after: z.string(),
  boundary_ids: z.array(z.string()),
  filters: z.record(z.string(), z.string()).default({}),
  base_url: z.string().optional(),
  store: z
    .object({
      base_url: z.string(),
      channel_accounts: z.array(z.string()).optional(),
      key_hash: z.string().optional(),
      profile: z.string().optional(),
    })
    .optional(),
  exported: z.number().int().nonnegative().default(0),
  saved_at: z.string(),
});

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** The mark's name, checked so that it is a plain file name; UsageError otherwise. */
export function checkMarkName(name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new UsageError(
      `--since-last takes a name of letters, digits, ".", "_" and "-" (up to 100, not starting with "." or "-"), e.g. --since-last accounting; got "${name}"`,
    );
  }
  return name;
}

/** The file a mark lives in. */
export function markPath(configDir: string, name: string): string {
  return join(configDir, 'marks', `${checkMarkName(name)}.json`);
}

/** The names of the saved marks, sorted. */
export async function listMarks(configDir: string): Promise<string[]> {
  const names = await readdir(join(configDir, 'marks')).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

/** The saved mark, or undefined when there is none yet; a damaged file is a UsageError naming it. */
export async function readMark(configDir: string, name: string): Promise<ExportMark | undefined> {
  const path = markPath(configDir, name);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FileError(`cannot read the mark ${path}: ${(error as Error).message}`);
  }
  let parsed: z.infer<typeof MARK_FILE>;
  try {
    parsed = MARK_FILE.parse(JSON.parse(text));
  } catch {
    throw new UsageError(
      `the mark ${path} is damaged; delete it to export everything again, or use another --since-last name`,
    );
  }
  return {
    createdAfter: parsed.created_after,
    boundaryIds: parsed.boundary_ids,
    filters: parsed.filters,
    baseUrl: parsed.base_url,
    store: parsed.store && {
      baseUrl: parsed.store.base_url,
      ...(parsed.store.channel_accounts === undefined
        ? {}
        : { channelAccounts: parsed.store.channel_accounts }),
      ...(parsed.store.key_hash === undefined ? {} : { keyHash: parsed.store.key_hash }),
      ...(parsed.store.profile === undefined ? {} : { profile: parsed.store.profile }),
    },
    exported: parsed.exported,
    savedAt: parsed.saved_at,
  };
}

/** Saves a mark atomically: a private temp file in the same directory, then rename over the old one. */
export async function writeMark(configDir: string, name: string, mark: ExportMark): Promise<string> {
  const path = markPath(configDir, name);
  const dir = join(configDir, 'marks');
  makeDirectory(dir, DIR_MODE);
  const body = {
    version: 1,
    created_after: mark.createdAfter,
    boundary_ids: mark.boundaryIds,
    filters: mark.filters,
    base_url: mark.baseUrl,
    store: mark.store && {
      base_url: mark.store.baseUrl,
      channel_accounts: mark.store.channelAccounts,
      key_hash: mark.store.keyHash,
    },
    exported: mark.exported,
    saved_at: mark.savedAt,
  };
  const temp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // Under the mark's lock, against the mark as it is now: two exports under one name at once
  // never move it back (the one that got further keeps it).
  await underLock(new LockFile(`${path}.lock`), async () => {
    const now = await readMark(configDir, name).catch(() => undefined);
    if (now && now.createdAfter > mark.createdAfter) return;
    try {
      await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: FILE_MODE, flush: true });
      await rename(temp, path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw new FileError(`cannot save the mark ${path}: ${(error as Error).message}`);
    }
  });
  return path;
}

/** What a run knows of the store it reaches, to compare with a saved mark. */
export interface RunStore {
  /** The run's filters; a later run under the same name must use the same. */
  filters: Record<string, string>;
  /** The base URL, normalised. */
  baseUrl: string;
  /** The store's channel account ids; undefined when the key cannot list them (no products:read). */
  channelAccounts?: string[];
  /** The hash of the run's key and base URL, for marks that name their store by a key. */
  keyHash: string;
  markFile: string;
}

/** The store a mark saved by this run names: its channel accounts when the key could list them, else the key. */
export function storeToSave(run: RunStore): SavedStore {
  return run.channelAccounts === undefined
    ? { baseUrl: run.baseUrl, keyHash: run.keyHash }
    : { baseUrl: run.baseUrl, channelAccounts: run.channelAccounts };
}

/**
 * A mark belongs to one export: one store on one service, whatever key reads it, and the same
 * filters; else the next run would continue another store's export, or skip what the filters
 * hid, silently. A store is known by its channel accounts (see sameMarkStore); a mark saved by
 * a key that could not list them, or by an earlier version, is known by that key. Returns a note
 * to say when the mark now names its store differently.
 */
export function checkSameExport(name: string, mark: ExportMark, run: RunStore): string | undefined {
  const elsewhere = 'use another --since-last name for this store';
  const savedUrl = mark.store?.baseUrl ?? mark.baseUrl;
  if (savedUrl !== undefined && normalBaseUrl(savedUrl) !== run.baseUrl) {
    throw new UsageError(
      `the mark "${name}" belongs to the service at ${normalBaseUrl(savedUrl)}, not ${run.baseUrl}; ${elsewhere}`,
    );
  }
  const note = checkSameStore(name, mark, run, elsewhere);
  const describe = (filters: Record<string, string>) =>
    Object.entries(filters)
      .map(([key, value]) => `${key}=${value}`)
      .join(', ') || 'no filters';
  const same =
    Object.keys(mark.filters).length === Object.keys(run.filters).length &&
    Object.entries(run.filters).every(([key, value]) => mark.filters[key] === value);
  if (!same) {
    throw new UsageError(
      `the mark "${name}" was made with ${describe(mark.filters)}, this run has ${describe(run.filters)}; use the same filters, or another --since-last name`,
    );
  }
  return note;
}

function checkSameStore(
  name: string,
  mark: ExportMark,
  run: RunStore,
  elsewhere: string,
): string | undefined {
  const saved = mark.store;
  const ours = run.channelAccounts;
  const restart = `delete ${run.markFile} and start again with --created-after ${mark.createdAfter}`;
  if (saved?.channelAccounts !== undefined) {
    const theirs = describeAccounts(saved.channelAccounts);
    if (ours === undefined) {
      throw new UsageError(
        `the mark "${name}" belongs to the store with channel accounts ${theirs}, and this key cannot list the store's channel accounts (it lacks products:read), so svc cannot tell whether it is that store; use a key with products:read, or ${elsewhere}`,
      );
    }
    const runStore: MarkStore = { baseUrl: run.baseUrl, channelAccounts: ours };
    if (!sameMarkStore({ baseUrl: run.baseUrl, channelAccounts: saved.channelAccounts }, runStore)) {
      throw new UsageError(
        `the mark "${name}" belongs to another store at ${run.baseUrl} (channel accounts ${theirs}), not the one this key reaches (${describeAccounts(ours)}); ${elsewhere}`,
      );
    }
    return undefined;
  }
  if (saved?.keyHash !== undefined) {
    if (saved.keyHash !== run.keyHash) {
      throw new UsageError(
        `the mark "${name}" names its store only by the key that saved it, and this is another key, so svc cannot tell whether it is the same store; if it is, ${restart}; otherwise ${elsewhere}`,
      );
    }
    if (ours === undefined) return undefined;
    return `the mark "${name}" now names its store by its channel accounts (${describeAccounts(ours)}), so a new key of this store carries on from it`;
  }
  return `the mark "${name}" was saved before marks named their store; it now belongs to the store at ${run.baseUrl}${ours === undefined ? '' : ` with channel accounts ${describeAccounts(ours)}`}`;
}
