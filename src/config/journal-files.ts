/**
 * The files beside a push's resume journal (journal.ts), in the 0700 journals folder, each
 * 0600: the private copy of exactly the bytes the check read, which the push sends from, and
 * the lines a changed-only push selected, written whole or not at all.
 */
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileWhole } from '../write-whole.js';
import { makeDirectory } from './directory.js';
import whenExit from './exit-hooks.js';

/**
 * A private copy of exactly the bytes the check read, written while it reads them: what is
 * sent is what was checked, even if the file is replaced during the push.
 */
export class CheckedCopy {
  private fd?: number;
  /** Where the copy lies beside its journal, once the push started. */
  private kept?: string;

  private constructor(readonly path: string) {
    this.fd = openSync(path, 'wx', 0o600);
  }

  /** A new, empty copy in the journals folder of the config dir `dir`. */
  static create(dir: string): CheckedCopy {
    const folder = join(dir, 'journals');
    makeDirectory(folder);
    const copy = new CheckedCopy(join(folder, `checking-${process.pid}-${randomUUID()}.csv`));
    // Gone at exit unless a journal kept it (moved to its own name).
    whenExit(() => copy.discard());
    return copy;
  }

  /** Appends bytes as the check reads them. */
  readonly write = (chunk: Buffer): void => {
    if (this.fd !== undefined) writeSync(this.fd, chunk);
  };

  /** Closes the copy once the check read everything. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Moves the copy beside the journal `journalFile` (its own name there) and returns where it is now. */
  keepBeside(journalFile: string): string {
    const path = copyBeside(journalFile);
    this.close();
    renameSync(this.path, path);
    this.kept = path;
    return path;
  }

  /** Removes the copy kept beside its journal (the push is over, and no resume reads it). */
  removeKept(): void {
    if (this.kept) rmSync(this.kept, { force: true });
  }

  /** Removes the copy (nothing was sent, or the check failed). */
  discard(): void {
    this.close();
    rmSync(this.path, { force: true });
  }
}

/** Where a journal keeps the checked copy its push sends from. */
function copyBeside(journalFile: string): string {
  return journalFile.replace(/\.json$/, '.csv');
}

/** The lines a changed-only push sends, and those it fails without a request, ascending. */
export interface StoredSelection {
  send: readonly number[];
  unknown: readonly number[];
}

/** The lines of a changed-only push live beside its journal. */
function selectionBeside(journalFile: string): string {
  return journalFile.replace(/\.json$/, '.selection.json');
}

function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Writes the selection beside the journal (atomically) and returns what the journal records of it. */
export function writeSelection(
  journalFile: string,
  selection: StoredSelection,
): { rows: number; sha256: string } {
  const path = selectionBeside(journalFile);
  const text = JSON.stringify({ send: selection.send, unknown: selection.unknown });
  writeFileWhole(path, text, 0o600);
  return { rows: selection.send.length, sha256: sha256Of(text) };
}

/** The selection beside the journal: where it is, and (unless it is missing) its text and that text's SHA-256. */
export function readSelection(journalFile: string): { path: string; text?: string; sha256?: string } {
  const path = selectionBeside(journalFile);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { path };
  }
  return { path, text, sha256: sha256Of(text) };
}

/** Removes the selection beside the journal, if any. */
export function removeSelection(journalFile: string): void {
  rmSync(selectionBeside(journalFile), { force: true });
}
