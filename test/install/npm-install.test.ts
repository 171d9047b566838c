/**
 * `npm pack` makes a package that installs like any npm CLI: `npm i -g` into a fresh prefix,
 * one optional dependency (the OS keyring library, a prebuilt binary: no build step; the
 * bundle in dist/ carries everything else), and `svc` runs from anywhere.
 * Packs the dist/ already built (--ignore-scripts: prepack would rebuild it under other tests).
 * Takes a few seconds: npm itself is slow to start.
 */
import { execFile, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRegistry, SVC_DEPENDENCIES, startLocalRegistry } from '../helpers/local-registry.js';
import { freshConfigDir } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** Runs a command and fails the test with its stderr when it does not exit 0. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });
  expect(result.status, `${command} ${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

let packed: { filename: string; files: Array<{ path: string }> };
let prefix: string;
let elsewhere: string;
let registry: LocalRegistry;

beforeAll(async () => {
  const work = tempDir('svc-install-');
  const out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  [packed] = JSON.parse(out) as [typeof packed];
  prefix = join(work, 'prefix');
  elsewhere = join(work, 'elsewhere');
  mkdirSync(elsewhere);
  // The keyring library comes from a registry on loopback serving what node_modules holds, into
  // an empty cache: the install needs no registry metadata that a fresh machine's cache lacks.
  // npm runs asynchronously: the registry answers from this process's event loop.
  registry = await startLocalRegistry(ROOT, SVC_DEPENDENCIES);
  await new Promise<void>((resolve, reject) => {
    execFile(
      'npm',
      ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', join(work, packed.filename)],
      {
        cwd: elsewhere,
        timeout: 90_000,
        env: {
          ...process.env,
          npm_config_update_notifier: 'false',
          npm_config_registry: registry.url,
          npm_config_cache: join(work, 'cache'),
          npm_config_offline: 'false',
        },
      },
      (error, _stdout, stderr) => (error ? reject(new Error(`npm install failed: ${stderr}`)) : resolve()),
    );
  });
}, 120_000);

afterAll(() => registry?.close());

describe('npm pack and npm install --global', () => {
  it('packs the launcher, the bundle, the completion scripts, the man page and the README, and nothing else', () => {
    const paths = packed.files.map((file) => file.path);
    expect(packed.filename).toBe(`svc-${pkg.version}.tgz`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'bin/svc',
        'bin/package.json',
        'dist/cli.js',
        'dist/help.cjs',
        'dist/help.cjs.cache',
        'dist/index.js',
        'completions/svc.bash',
        'completions/_svc',
        'completions/svc.fish',
        'man/svc.1',
        'README.md',
        'package.json',
      ]),
    );
    const unexpected = paths.filter(
      (path) =>
        !/^(bin\/(svc|package\.json)|dist\/(chunks\/)?[\w.-]+\.js|dist\/help\.cjs(\.cache)?|completions\/(svc\.bash|_svc|svc\.fish)|man\/svc\.1|README\.md|package\.json)$/.test(
          path,
        ),
    );
    expect(unexpected).toEqual([]);
  });

  it('installs the man page where man finds it (share/man/man1 of the prefix)', () => {
    const page = join(prefix, 'share', 'man', 'man1', 'svc.1');
    expect(existsSync(page)).toBe(true);
    expect(readFileSync(page, 'utf8')).toContain('.TH SVC 1');
  });

  it('installs only zod (for the library types) and the keyring library, prebuilt (no build step); the bundle carries the rest', () => {
    const installed = join(prefix, 'lib', 'node_modules', 'svc');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    // zod's code is bundled too: it is a dependency because the library's published types name its types.
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['zod']);
    expect(Object.keys(manifest.optionalDependencies ?? {})).toEqual(['@napi-rs/keyring']);
    expect(readdirSync(join(installed, 'node_modules')).sort()).toEqual(['@napi-rs', 'zod']);
    // The library and its binary load as installed: a prebuilt .node file, nothing compiled.
    const library = join(installed, 'node_modules', '@napi-rs', 'keyring');
    const loaded = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(library)}).Entry`], {
      encoding: 'utf8',
    });
    expect(loaded.status, loaded.stderr).toBe(0);
    const binaries = readdirSync(join(installed, 'node_modules', '@napi-rs')).filter((name) =>
      name.startsWith('keyring-'),
    );
    expect(binaries.length).toBeGreaterThan(0);
    expect(
      readdirSync(join(installed, 'node_modules', '@napi-rs', binaries[0] ?? '')).some((file) =>
        file.endsWith('.node'),
      ),
    ).toBe(true);
    // Fetched as packages, not built: the library and this platform's prebuilt binary package.
    expect([...registry.served].sort()).toEqual(['@napi-rs/keyring', `@napi-rs/${binaries[0]}`, 'zod']);
  });

  it('runs svc --version, --help and a command needing bundled libraries from another directory', () => {
    const svc = join(prefix, 'bin', 'svc');
    expect(run(svc, ['--version'], elsewhere)).toBe(`${pkg.version}\n`);
    const help = run(svc, ['--help'], elsewhere);
    expect(help).toContain('Usage: svc [options] [command]');
    expect(help).toContain('Catalog:');
    expect(run(svc, ['orders', 'list', '--help'], elsewhere)).toContain('Examples:');
    // conf (profiles) and zod (completion's channel kinds) come from the bundle, not node_modules.
    expect(
      run(svc, ['profiles', 'list', '-o', 'json'], elsewhere, { SVC_CONFIG_DIR: freshConfigDir() }),
    ).toBe('[]\n');
    expect(run(svc, ['completion', 'bash'], elsewhere)).toContain("'listings list|--channel'");
  });

  it('the installed svc reaches the keyring through the installed library', () => {
    const dir = freshConfigDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current_profile: 'desk',
        profiles: {
          desk: { base_url: 'http://127.0.0.1:9', key_storage: 'keyring', keyring_account: 'desk@x' },
        },
      }),
      { mode: 0o600 },
    );
    // A session bus address with nothing behind it: the library loads, connects, and fails at once.
    const result = spawnSync(join(prefix, 'bin', 'svc'), ['orders', 'list'], {
      cwd: elsewhere,
      env: { ...process.env, SVC_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(4);
    expect(result.stderr).toMatch(/DBus error/);
    expect(result.stderr).not.toMatch(/not installed/);
  });

  it('loads no heavy library at start-up: only commander is in dist/cli.js and its static imports', () => {
    const dist = join(prefix, 'lib', 'node_modules', 'svc', 'dist');
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      // esbuild marks each bundled file with a `// node_modules/<package>/…` comment.
      for (const match of code.matchAll(/^\/\/ node_modules\/((?:@[^/\n]+\/)?[^/\n]+)\//gm))
        packages.add(match[1] ?? '');
      for (const match of code.matchAll(/^(?:import|export)\s[^;]*?["'](\.{1,2}\/[^"']+)["']/gm)) {
        visit(join(file, '..', match[1] ?? ''));
      }
    };
    visit(join(dist, 'cli.js'));
    expect(seen.size).toBeGreaterThan(1);
    expect([...packages]).toEqual(['commander']);
  });

  it('runs from the checkout with npm exec', () => {
    expect(run('npm', ['exec', '--offline', '--', 'svc', '--version'], ROOT)).toBe(`${pkg.version}\n`);
  });
});
