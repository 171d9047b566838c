/**
 * The library as users get it: `npm pack`, the tarball installed into an empty project, and
 * there a strict TypeScript script that lists orders with `for await`, sets three rows of
 * stock and catches an SvcError type-checks with `tsc --noEmit` and runs against the emulator.
 * The package is staged in a temporary directory (dist/ copied, its types emitted there), so
 * the dist/ other tests run is left as it is. Slow (npm and tsc start slowly): a minute or two.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from '../helpers/emulator.js';
import { type LocalRegistry, SVC_DEPENDENCIES, startLocalRegistry } from '../helpers/local-registry.js';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const SCRIPT = `import { createClient, SvcError, type BulkResult, type Order } from 'svc';

const client = createClient();
const awaiting: Order[] = [];
for await (const order of client.orders.list({ status: 'awaiting_shipment' })) awaiting.push(order);
const skus = (await client.products.list().first(3)).map((product) => product.variants?.[0]?.sku ?? '');
const pushed: BulkResult = await client.inventory.push(skus.map((sku, index) => ({ sku, quantity: index + 1 })));
let caught: { code?: string; exitCode: number; status?: number } | undefined;
try {
  await client.orders.get('ord_missing');
} catch (error) {
  if (error instanceof SvcError) caught = { code: error.code, exitCode: error.exitCode, status: error.status };
}
await client.close();
const { total, updated } = pushed.totals;
process.stdout.write(JSON.stringify({ awaiting: awaiting.length, pushed: pushed.outcomes.map((item) => item.status), total, updated, caught }));
`;

/** What the package's declarations are emitted from. */
const DECLARATION_SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** A hash of the names and contents of the files under `paths` (below ROOT). */
function sourcesDigest(paths: string[]): string {
  const hash = createHash('sha256');
  for (const path of paths) {
    const full = join(ROOT, path);
    const files = statSync(full).isDirectory()
      ? readdirSync(full, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
          .sort()
      : [full];
    for (const file of files)
      hash
        .update(`${file.slice(ROOT.length)}\0`)
        .update(readFileSync(file))
        .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The package's declarations (`tsc -p tsconfig.build.json`, as `npm pack` emits them), emitted
 * once per state of their sources into node_modules/.cache: tsc's emit is most of this test's
 * CPU. Emitted beside and renamed into place, so two suites at once never read a half-written set.
 */
async function declarations(): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache', 'svc-declarations');
  const ready = join(cache, sourcesDigest(DECLARATION_SOURCES));
  if (existsSync(ready)) return ready;
  mkdirSync(cache, { recursive: true });
  const partial = mkdtempSync(`${ready}.partial-`);
  // Declarations only: `npm test` type-checks the same sources before the suite (a third of tsc's CPU).
  const args = [TSC, '-p', join(ROOT, 'tsconfig.build.json'), '--noCheck', '--outDir', partial];
  await run(process.execPath, args, { cwd: ROOT }).catch((error: unknown) => {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  });
  try {
    renameSync(partial, ready);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another run emitted the same first
  }
  // What earlier states of the sources emitted, and emits a killed run left half-written.
  for (const entry of readdirSync(cache)) {
    const path = join(cache, entry);
    const abandoned = entry.includes('.partial-') && Date.now() - statSync(path).mtimeMs > 3_600_000;
    if (path !== ready && (!entry.includes('.partial-') || abandoned))
      rmSync(path, { recursive: true, force: true });
  }
  return ready;
}

let work: string;
let project: string;
let stage: string;
let tarball: string;
let registry: LocalRegistry | undefined;
let emu: RunningEmulator | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'svc-packed-'));
  stage = join(work, 'stage');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  mkdirSync(stage);
  // Not the single executables (dist/sea, over 100 MB, about 3 s to copy): `files` leaves them out.
  const packable = (path: string) => !/[/\\]dist[/\\](sea|\.sea-)/.test(path);
  for (const entry of ['package.json', 'README.md', 'bin', 'dist', 'completions', 'man']) {
    cpSync(join(ROOT, entry), join(stage, entry), { recursive: true, filter: packable });
  }
  expect(pkg.files).toContain('dist/types/**/*.d.ts');
  cpSync(await declarations(), join(stage, 'dist', 'types'), { recursive: true });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: stage,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  tarball = join(work, filename);
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'ci-job', private: true, type: 'module' }),
  );
  // The keyring library (an optional dependency) comes from a registry on loopback, as in the install test.
  registry = await startLocalRegistry(ROOT, SVC_DEPENDENCIES);
  await run('npm', ['install', '--no-audit', '--no-fund', join(work, filename)], {
    cwd: project,
    env: {
      ...process.env,
      npm_config_update_notifier: 'false',
      npm_config_registry: registry.url,
      npm_config_cache: join(work, 'cache'),
    },
  });
  // What a TypeScript project has beside it: Node's types. zod, whose types the results' types
  // name, is a dependency of svc: the install brought it.
  expect(existsSync(join(project, 'node_modules', 'zod', 'package.json'))).toBe(true);
  for (const name of ['@types/node', 'undici-types']) {
    mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
  emu = await emulator();
}, 300_000);

afterAll(async () => {
  await registry?.close();
  await emu?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

it('passes publint and arethetypeswrong (an ESM package: its types resolve under node16 and bundlers)', async () => {
  const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
  // The tarball itself, as users get it (a directory would have publint start npm to pack it again).
  const linted = await run(bin('publint'), ['run', tarball, '--strict'], { cwd: work });
  expect(linted.stdout).toMatch(/All good/);
  const checked = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], {
    cwd: work,
  });
  // attw exits 1 on a problem; the profile ignores the CommonJS resolutions an ESM-only package has none of.
  const problems = checked.stdout.split('\n').filter((line) => /docs\/problems\//.test(line));
  expect(problems.filter((line) => !line.startsWith('(ignored per resolution)'))).toEqual([]);
}, 120_000);

it('type-checks a strict script that uses the library, and runs it against the emulator', async () => {
  writeFileSync(join(project, 'job.ts'), SCRIPT);
  // Beside it, a script with a wrong parameter: one tsc run checks both (tsc's start-up is most of its cost).
  writeFileSync(
    join(project, 'wrong.ts'),
    SCRIPT.replace("{ status: 'awaiting_shipment' }", "{ state: 'x' }"),
  );
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
    },
    files: ['job.ts', 'wrong.ts'],
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  const checked = await run(process.execPath, [TSC, '-p', project, '--pretty', 'false'], {
    cwd: project,
  }).then(
    () => ({ code: 0, stdout: '' }),
    (error: { code: number; stdout: string }) => error,
  );
  // The wrong parameter does not type-check; the script as written has no error at all.
  expect(checked.code).not.toBe(0);
  const errors = checked.stdout.split('\n').filter((line) => /error TS/.test(line));
  expect(errors.length).toBeGreaterThan(0);
  expect(errors.every((line) => line.startsWith('wrong.ts('))).toBe(true);
  expect(errors.join('\n')).toMatch(/'state' does not exist/);

  writeFileSync(join(project, 'job.mjs'), transformSync(SCRIPT, { loader: 'ts', format: 'esm' }).code);
  const env = {
    ...process.env,
    SVC_BASE_URL: emu?.url,
    SVC_API_KEY: emu?.keys.live,
    SVC_CONFIG_DIR: join(work, 'config'),
  };
  const { stdout } = await run(process.execPath, ['job.mjs'], { cwd: project, env });
  const result = JSON.parse(stdout) as {
    awaiting: number;
    pushed: string[];
    total: number;
    updated: number;
    caught: unknown;
  };
  expect(result.awaiting).toBeGreaterThan(0);
  expect(result.pushed).toEqual(['updated', 'updated', 'updated']);
  expect(result).toMatchObject({ total: 3, updated: 3 });
  expect(result.caught).toEqual({ code: 'resource_missing', exitCode: 1, status: 404 });
}, 120_000);
