/**
 * Loading the library loads neither commander, the prompts nor the emulator: no module that
 * dist/index.js can reach, by static or dynamic import, bundles them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';

const DIST = join(import.meta.dirname, '..', '..', 'dist');

/** Every bundle file reachable from `entry` (below dist/), by any import. */
function reachable(entry: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    const code = readFileSync(join(DIST, file), 'utf8');
    found.set(file, code);
    for (const match of code.matchAll(/(?:from|import)\s*\(?\s*"(\.\.?\/[^"]+\.js)"/g)) {
      visit(join(dirname(file), match[1] ?? ''));
    }
  };
  visit(entry);
  return found;
}

it('reaches the client, and none of commander, the prompts or the emulator', () => {
  const files = reachable('index.js');
  const bundled = [...files.values()].join('\n');
  // esbuild names each bundled source in a comment: the client is in, the rest is not.
  expect(bundled).toMatch(/\/\/ src\/client\/transport\.ts/);
  for (const kept of [
    /node_modules\/commander\//,
    /node_modules\/@inquirer\//,
    /\/\/ src\/emulator\//,
    /\/\/ src\/cli\//,
  ]) {
    expect(bundled).not.toMatch(kept);
  }
});
