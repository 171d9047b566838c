/**
 * docs/api is TypeDoc's reference of the library (typedoc.json; `npm run docs:api` writes it with
 * a stamp of what TypeDoc read and wrote). `scripts/api-docs.mjs --check` says whether it is what
 * TypeDoc writes now: from the stamp while the sources are the stamp's, by running TypeDoc again
 * (slow: it reads the whole program) once they changed.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCS = join(ROOT, 'docs', 'api');

function check(docs: string) {
  const args = [join(ROOT, 'scripts', 'api-docs.mjs'), '--check', '--docs', docs];
  return spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
}

it('docs/api is the reference TypeDoc writes of the library now', () => {
  const checked = check(DOCS);
  expect(checked.stderr).toBe('');
  expect(checked.status).toBe(0);
  expect(checked.stdout).toMatch(/^docs\/api is current/);
}, 300_000);

it('a page changed by hand since TypeDoc wrote it fails the check, naming the command that writes it', () => {
  const copy = tempDir('svc-api-docs-');
  cpSync(DOCS, copy, { recursive: true });
  appendFileSync(join(copy, 'functions', 'createClient.md'), '\nEdited by hand.\n');
  const checked = check(copy);
  expect(checked.status).toBe(1);
  expect(checked.stderr).toMatch(/npm run docs:api/);
}, 300_000);
