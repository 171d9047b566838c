import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `path` whole or not at all: a temporary file beside it, renamed into place,
 * so a stop or a full disk never leaves half a file where a whole one was expected.
 */
export function writeFileWhole(path: string, text: string, mode?: number): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, mode === undefined ? undefined : { mode });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
