/**
 * Vitest global setup: the black-box tests run dist/, so build it first unless it is newer than
 * every file it is built from. `vitest run`, `npm test` and an editor's runner all test the code
 * on disk, never a previous build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
/** What dist/ is built from: the sources, the bundler scripts and the dependencies. */
const INPUTS = [
  'src',
  'scripts/build.mjs',
  'scripts/bundle.mjs',
  'scripts/manifest.mjs',
  'scripts/endpoints.mjs',
  'scripts/undici-core.cjs',
  'package.json',
  'package-lock.json',
];
/** The file the build writes last-ish and every run loads: its age stands for dist/'s. */
const BUILT = join(ROOT, 'dist', 'cli.js');

/** Newest modification time (ms) among a file or everything under a directory. */
export function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** True when dist/ is missing or older than one of its inputs. */
export function distIsStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const builtAt = statSync(BUILT).mtimeMs;
  return INPUTS.some((input) => existsSync(join(ROOT, input)) && newest(join(ROOT, input)) > builtAt);
}

export default function setup(): void {
  if (!distIsStale()) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}
