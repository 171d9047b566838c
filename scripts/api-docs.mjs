// Writes docs/api, TypeDoc's reference of the library (typedoc.json), and in it a stamp: a hash of
// what TypeDoc read (the sources, its settings, the locked versions) and one of what it wrote.
// `--check` (test/library/api-docs.test.ts) says whether docs/api is what TypeDoc writes now and
// exits 1 when not. While the sources are those of the stamp, the hashes answer that without
// TypeDoc's 10 s of CPU; once they changed, TypeDoc writes the reference again to compare with.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = '.stamp.json';
/** What TypeDoc's output depends on, below the repository. */
const INPUTS = ['src', 'typedoc.json', 'tsconfig.json', 'package-lock.json'];

/** The files below `dir`, as sorted paths relative to it. */
function filesBelow(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** One hash over the names and contents of `names` (paths below `base`). */
function digest(base, names) {
  const hash = createHash('sha256');
  for (const name of names)
    hash
      .update(`${name}\0`)
      .update(readFileSync(join(base, name)))
      .update('\0');
  return hash.digest('hex');
}

const inputsHash = () =>
  digest(
    ROOT,
    INPUTS.flatMap((input) =>
      statSync(join(ROOT, input)).isDirectory()
        ? filesBelow(join(ROOT, input)).map((f) => join(input, f))
        : [input],
    ),
  );
const docsNames = (dir) => (existsSync(dir) ? filesBelow(dir).filter((name) => name !== STAMP) : []);
const docsHash = (dir) => digest(dir, docsNames(dir));

/** TypeDoc's reference of the library into `out` (emptied first). */
function typedoc(out) {
  const bin = join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
  execFileSync(process.execPath, [bin, '--out', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The files that differ between two references, by name. */
function differing(a, b) {
  const names = [...new Set([...docsNames(a), ...docsNames(b)])].sort();
  const read = (dir, name) =>
    existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined;
  return names.filter((name) => read(a, name) !== read(b, name));
}

function check(docs) {
  const stampPath = join(docs, STAMP);
  const stamp = existsSync(stampPath) ? JSON.parse(readFileSync(stampPath, 'utf8')) : undefined;
  if (stamp?.inputs === inputsHash()) {
    if (stamp.docs === docsHash(docs)) return 'docs/api is current: TypeDoc wrote it from these sources';
    throw new Error('docs/api changed since TypeDoc wrote it: run `npm run docs:api`');
  }
  const out = mkdtempSync(join(tmpdir(), 'svc-api-docs-'));
  try {
    typedoc(out);
    const changed = differing(out, docs);
    if (changed.length > 0) {
      throw new Error(
        `docs/api is not what TypeDoc writes now (${changed.slice(0, 5).join(', ')}): run \`npm run docs:api\``,
      );
    }
    return 'docs/api is current: TypeDoc wrote the same (`npm run docs:api` refreshes its stamp)';
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const docsDir = process.argv.includes('--docs')
  ? process.argv[process.argv.indexOf('--docs') + 1]
  : join(ROOT, 'docs', 'api');
if (process.argv.includes('--check')) {
  try {
    process.stdout.write(`${check(docsDir)}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
} else {
  typedoc(docsDir);
  writeFileSync(
    join(docsDir, STAMP),
    `${JSON.stringify({ inputs: inputsHash(), docs: docsHash(docsDir) }, null, 2)}\n`,
  );
  process.stdout.write('docs/api\n');
}
