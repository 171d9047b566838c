/**
 * The one way a test makes temporary files (wrangler's `run-in-tmp`): every directory is removed
 * when the test that made it ends, pass or fail, or, made outside a test (a file's setup), when
 * the file's tests end. A run leaves the system temp folder as it found it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** Directories made outside a test, removed after the file's last test. */
const madeForFile: string[] = [];
afterAll(() => removeAll(madeForFile));
// A worker that ends without its hooks (a timed-out file) still takes its directories with it.
process.once('exit', () => removeAll(madeForFile));

function removeAll(dirs: string[]): void {
  for (const dir of dirs.splice(0)) remove(dir);
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
    // Not inside a test: a file-level scratch directory.
    madeForFile.push(dir);
  }
  return dir;
}

/** `name` in a new temporary directory, written with `contents` when given. */
export function tempFile(name: string, contents?: string | Buffer, prefix?: string): string {
  const path = join(tempDir(prefix), name);
  if (contents !== undefined) writeFileSync(path, contents);
  return path;
}
