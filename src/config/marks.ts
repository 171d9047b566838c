/**
 * Incremental-sync marks: where the last `orders list --since-last NAME` export ended, one
 * JSON file per name in `<config dir>/marks/`, replaced atomically (temp file + rename) so
 * that a crash mid-write leaves the previous mark whole.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { FileError, UsageError } from '../errors.js';
import { describeStore, normalBaseUrl, type StoreIdentity, sameStore } from './store-identity.js';

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
  store?: StoreIdentity;
  /** Orders the export that saved this mark printed. */
  exported: number;
  /** When that export finished, by the service's clock. */
  savedAt: string;
}

const MARK_FILE = z.object({
  version: z.literal(1),
  created_after: z.string(),
  boundary_ids: z.array(z.string()),
  filters: z.record(z.string(), z.string()).default({}),
  base_url: z.string().optional(),
  store: z.object({ profile: z.string().optional(), base_url: z.string(), key_hash: z.string() }).optional(),
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
      ...(parsed.store.profile === undefined ? {} : { profile: parsed.store.profile }),
      baseUrl: parsed.store.base_url,
      keyHash: parsed.store.key_hash,
    },
    exported: parsed.exported,
    savedAt: parsed.saved_at,
  };
}

/** Saves a mark atomically: a private temp file in the same directory, then rename over the old one. */
export async function writeMark(configDir: string, name: string, mark: ExportMark): Promise<string> {
  const path = markPath(configDir, name);
  const dir = join(configDir, 'marks');
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const body = {
    version: 1,
    created_after: mark.createdAfter,
    boundary_ids: mark.boundaryIds,
    filters: mark.filters,
    base_url: mark.baseUrl,
    store: mark.store && {
      profile: mark.store.profile,
      base_url: mark.store.baseUrl,
      key_hash: mark.store.keyHash,
    },
    exported: mark.exported,
    saved_at: mark.savedAt,
  };
  const temp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: FILE_MODE, flush: true });
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw new FileError(`cannot save the mark ${path}: ${(error as Error).message}`);
  }
  return path;
}

/**
 * A mark belongs to one export: one store (profile, key and service) and the same filters, or
 * the next run would continue another store's export, or skip what the filters hid, silently.
 * Returns true when the mark predates store identities, so the caller can say it is adopted.
 */
export function checkSameExport(
  name: string,
  mark: ExportMark,
  run: { filters: Record<string, string>; store: StoreIdentity; markFile: string },
): boolean {
  const elsewhere = `use another --since-last name for this store`;
  if (mark.baseUrl !== undefined && normalBaseUrl(mark.baseUrl) !== run.store.baseUrl) {
    throw new UsageError(
      `the mark "${name}" belongs to the service at ${normalBaseUrl(mark.baseUrl)}, not ${run.store.baseUrl}; ${elsewhere}`,
    );
  }
  if (mark.store && !sameStore(mark.store, run.store)) {
    const theirs = describeStore(mark.store);
    const ours = describeStore(run.store);
    const which = theirs === ours ? `another key (${theirs})` : theirs;
    throw new UsageError(
      `the mark "${name}" belongs to ${which}, not to this run's ${ours}; ${elsewhere} (if it is the same store under a new key, delete ${run.markFile} and start from --created-after ${mark.createdAfter})`,
    );
  }
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
  return mark.store === undefined;
}
