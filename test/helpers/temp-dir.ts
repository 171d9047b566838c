/**
 * The one way a test makes temporary files (wrangler's `run-in-tmp`): every directory is removed
 * when the test that made it ends, pass or fail, or, made outside a test (a file's setup), when
 * the file's tests end (a setup file of every lane calls `removeFileDirs`). A run leaves the
 * system temp folder as it found it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Directories made outside a test (a file's collection or its beforeAll), not yet removed. */
const madeForFile = new Set<string>();

/** Removes the directories made outside a test: after each file's tests (test/setup/temp-dirs.ts). */
export function removeFileDirs(): void {
  for (const dir of madeForFile) remove(dir);
  madeForFile.clear();
}

function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** A new empty directory in the system temp folder, removed when the current test (or file) ends. */
export function tempDir(prefix = 'svc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    onTestFinished(() => remove(dir));
  } catch {
    // Not inside a test: a scratch directory of the file being collected or set up.
    madeForFile.add(dir);
  }
  return dir;
}
