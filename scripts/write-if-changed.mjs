// A generated source written only when its text changed: an unchanged file keeps its age, so
// dist/ is not rebuilt for it (test/setup/build.ts compares ages).
import { readFileSync, writeFileSync } from 'node:fs';

/** Writes `text` to `path` unless the file already holds exactly that. */
export function writeIfChanged(path, text) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current !== text) writeFileSync(path, text);
}
