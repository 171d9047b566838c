// `npm run build:sea`: the CLI as one executable, dist/sea/svc-<platform>-<arch>, for machines
// without Node (docs/guide.md, A single executable). Node's single executable applications take one
// CommonJS script, so the sources go through esbuild once more, with the options of
// scripts/bundle.mjs, into one CJS file with no lazy chunks (each `await import()` becomes a
// function call inside it); `node --experimental-sea-config` turns it into a blob, and
// postject injects the blob into a copy of the Node binary running this script. The keyring
// library's native binary, when installed, is copied beside the executable, where it loads it.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions, lighterLibraries, root } from './bundle.mjs';

/** The sentinel Node's binary carries to mark where a blob is injected. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Builds the single executable into `outdir`; returns its path. */
export async function buildSea(outdir = join(root, 'dist', 'sea')) {
  const work = join(outdir, 'build');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const script = join(work, 'svc.cjs');
  await build({
    ...bundleOptions,
    entryPoints: ['src/cli/single-executable.ts'],
    outfile: script,
    format: 'cjs',
    splitting: false,
    sourcemap: false,
    // A CommonJS script has no import.meta; the one use left (where the keyring library is
    // installed) is not taken in the executable, which looks beside itself.
    define: { ...bundleOptions.define, 'import.meta.url': '__svcScriptUrl' },
    // ioredis's `debug` requires supports-color at load; here it would print a warning.
    alias: { ...bundleOptions.alias, 'supports-color': './src/client/pacing/no-colour-probe.ts' },
    banner: { js: "const __svcScriptUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [...lighterLibraries(), builtinsRequired],
  });
  const blob = join(work, 'svc.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    `${JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }, null, 2)}\n`,
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const executable = join(outdir, `svc-${process.platform}-${process.arch}`);
  // Built beside its name and renamed once whole: a failed injection leaves no plain node binary
  // that looks like a fresh build.
  const unfinished = join(work, 'svc.unfinished');
  copyFileSync(process.execPath, unfinished);
  chmodSync(unfinished, 0o755);
  const { inject } = await import('postject');
  await inject(unfinished, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: FUSE,
    machoSegmentName: process.platform === 'darwin' ? 'NODE_SEA' : undefined,
  });
  renameSync(unfinished, executable);
  const keyring = keyringBinary();
  if (keyring) copyFileSync(keyring, join(outdir, basename(keyring)));
  rmSync(work, { recursive: true, force: true });
  return { executable, keyring: keyring && join(outdir, basename(keyring)) };
}

/**
 * `await import('node:http')` stays a dynamic import in a CommonJS bundle, and the single
 * executable's script has no dynamic import (with a code cache, none at all): each becomes a
 * bundled module that requires the built-in.
 */
const builtinsRequired = {
  name: 'builtins-required',
  setup(builder) {
    builder.onResolve({ filter: /^[a-z0-9_:/]+$/ }, (args) =>
      args.kind === 'dynamic-import' && isBuiltin(args.path)
        ? { path: args.path, namespace: 'builtin-required' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'builtin-required' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/** The installed native binary of @napi-rs/keyring for this platform, if any. */
function keyringBinary() {
  const require = createRequire(join(root, 'package.json'));
  const abi =
    process.platform === 'linux'
      ? process.report.getReport().header.glibcVersionRuntime
        ? '-gnu'
        : '-musl'
      : '';
  const name = `@napi-rs/keyring-${process.platform}-${process.arch}${abi}`;
  try {
    return require.resolve(name);
  } catch {
    return undefined;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { executable, keyring } = await buildSea();
  const mb = (path) => `${(statSync(path).size / 2 ** 20).toFixed(1)} MB`;
  console.log(`${executable} (${mb(executable)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (keyring)
    console.log(`${keyring} (${mb(keyring)}): the keyring library, loaded from beside the executable`);
  else console.log('no keyring library installed: the executable keeps keys in the 0600 file');
}
