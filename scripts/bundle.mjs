// How the CLI and the library are bundled, shared by scripts/build.mjs and the benchmarks so
// that what is measured is what ships.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const common = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies inside an ESM bundle need a real `require`.
  banner: {
    js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  absWorkingDir: root,
  // when-exit's signal listeners would re-raise SIGINT/SIGTERM over svc's clean stop.
  alias: { 'when-exit': './src/config/exit-hooks.ts' },
};

/** The options every bundle of the sources shares (scripts/build-sea.mjs builds one more). */
export { common as bundleOptions, root };

const CLI_ENTRY = 'src/cli/main.ts';
const KERNEL = 'svc-startup-kernel';

/**
 * Bundles the CLI into `outdir`. Heavy code stays in lazily imported chunks; the modules the
 * start-up path imports statically are tied together into one chunk. Left alone, esbuild
 * gives every distinct set of importers its own small chunk, and each file costs start-up
 * 1 to 2 ms in Node's module loader: a dozen of them put `--help` over its budget.
 */
export async function bundleCli(outdir) {
  const startup = await startupModules();
  await build({
    ...common,
    entryPoints: { cli: CLI_ENTRY },
    outdir,
    plugins: [tieTogether(startup)],
  });
}

/** Bundles the library entries (`svc`, `svc/emulator`) into `outdir`, without the CLI. */
export async function bundleLibrary(outdir) {
  await build({
    ...common,
    entryPoints: { index: 'src/index.ts', emulator: 'src/emulator-entry.ts' },
    outdir,
  });
}

/** Absolute paths of every module reached from the CLI entry by static imports alone. */
async function startupModules() {
  const { metafile } = await build({
    ...common,
    entryPoints: [CLI_ENTRY],
    outdir: 'unused',
    write: false,
    metafile: true,
  });
  const reached = new Set();
  const visit = (path) => {
    if (reached.has(path)) return;
    reached.add(path);
    for (const edge of metafile.inputs[path]?.imports ?? []) {
      if (edge.kind === 'import-statement' && !edge.external) visit(edge.path);
    }
  };
  visit(CLI_ENTRY);
  reached.delete(CLI_ENTRY);
  // Our own modules only: libraries they import follow them into the same chunk.
  return new Set([...reached].filter((path) => path.startsWith('src/')).map((path) => join(root, path)));
}

/** Makes each start-up module import one virtual module that imports them all. */
function tieTogether(modules) {
  return {
    name: 'tie-startup-modules',
    setup(builder) {
      builder.onResolve({ filter: new RegExp(`^${KERNEL}$`) }, () => ({ path: KERNEL, namespace: KERNEL }));
      builder.onLoad({ filter: /.*/, namespace: KERNEL }, () => ({
        contents: [...modules].map((path) => `import ${JSON.stringify(path)};`).join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
      builder.onLoad({ filter: /\.(ts|js|mjs|cjs)$/ }, (args) => {
        if (!modules.has(args.path)) return undefined;
        const contents = readFileSync(args.path, 'utf8');
        const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
        return { contents: `${contents}\nimport '${KERNEL}';\n`, loader, resolveDir: dirname(args.path) };
      });
    },
  };
}
