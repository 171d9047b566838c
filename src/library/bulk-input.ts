/**
 * The input of the library's bulk runs: a file named by its path, or items given as data,
 * written to a private temporary file so that they pass the same whole-input check the CLI's
 * file does (and a push's journal names them by their content, as it names a file's).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BulkResult } from '../core/bulk-stopped.js';
import { UsageError } from '../errors.js';

/** Runs `check` on a file: the one named, or the items written by `write` to a temporary `name`. */
export async function withFileOf<I, T>(
  input: readonly I[] | string,
  name: string,
  write: (items: readonly I[]) => string,
  check: (path: string) => Promise<T>,
): Promise<T> {
  if (typeof input === 'string') return check(input);
  if (!Array.isArray(input)) throw new UsageError('a bulk run takes an array of items or the path of a file');
  const dir = mkdtempSync(join(tmpdir(), 'svc-items-'));
  try {
    const path = join(dir, name);
    writeFileSync(path, write(input), { mode: 0o600 });
    return await check(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Items given as data came from no file: their outcomes name them by index and key alone. */
export function withoutLines(result: BulkResult): BulkResult {
  return { ...result, outcomes: result.outcomes.map(({ line: _line, ...outcome }) => outcome) };
}

/** CSV text of `header` and `rows` (an absent value an empty cell), quoted where a cell needs it. */
export function csvText(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (value: unknown) => {
    if (value === undefined || value === null) return '';
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${[header, ...rows].map((row) => row.map(cell).join(',')).join('\n')}\n`;
}
