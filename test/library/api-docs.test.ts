/**
 * docs/api is TypeDoc's reference of the library (typedoc.json; `npm run docs:api` writes it):
 * generated again here, it is what the repository holds. Slow (TypeDoc reads the whole program).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'svc-api-docs-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every file below `dir` with its text, by path below `dir`. */
function tree(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files
      .map((entry) => join(entry.parentPath, entry.name))
      .map((path) => [path.slice(dir.length + 1), readFileSync(path, 'utf8')] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

it('docs/api is the reference TypeDoc writes of the library now', async () => {
  const typedoc = join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
  await promisify(execFile)(process.execPath, [typedoc, '--out', out], { cwd: ROOT });
  const written = tree(out);
  expect(written.has('functions/createClient.md')).toBe(true);
  expect(tree(join(ROOT, 'docs', 'api'))).toEqual(written);
}, 300_000);
