// How the CLI and the library are bundled, shared by scripts/build.mjs and the benchmarks so
// that what is measured is what ships.
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Script, constants as vmConstants } from 'node:vm';
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
    plugins: [tieTogether(startup), ...lighterLibraries()],
  });
  await bundleHelp(outdir);
}

/** The help script and its code cache, as bin/svc finds them in dist/. */
export const HELP_SCRIPT = 'help.cjs';
export const HELP_CACHE = 'help.cjs.cache';

/** The command line whose run fills the help script's code cache: the help most asked for. */
const HELP_WARM_UP = ['orders', 'list', '--help'];

/**
 * Bundles dist/help.cjs, which bin/svc runs for a command line that asks for help: one
 * CommonJS script holding the program and the command manifest (src/cli/manifest.ts), and
 * none of the command definitions or what they run. Node 20 keeps no compiled code of ES modules
 * between runs, but V8 takes a code cache for a script: help.cjs.cache is the code V8 compiled
 * for `svc orders list --help`, made here by running it. A Node whose V8 differs rejects it
 * and compiles the script as usual. Its figures: bench/RESULTS.md, Start-up.
 */
async function bundleHelp(outdir) {
  const script = join(outdir, HELP_SCRIPT);
  await build({
    ...common,
    entryPoints: ['src/cli/help-entry.ts'],
    outfile: script,
    format: 'cjs',
    splitting: false,
    sourcemap: false,
    // A CommonJS script has no import.meta: its URL comes from its file name.
    define: { ...common.define, 'import.meta.url': '__svcScriptUrl' },
    banner: { js: "const __svcScriptUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [helpOnly(), ...lighterLibraries()],
    // Whitespace and syntax only (names stay, for stack traces): less to read at each start.
    minifyWhitespace: true,
    minifySyntax: true,
  });
  const { compiled, run } = loadScript(script);
  const io = quietIO();
  const code = await run().mainForHelp(['node', 'svc', ...HELP_WARM_UP], { io, env: { NO_COLOR: '1' } });
  if (code !== 0 || !io.printed().startsWith('Usage: svc orders list')) {
    throw new Error(`dist/${HELP_SCRIPT} did not print the help of svc orders list (exit ${code})`);
  }
  writeFileSync(join(outdir, HELP_CACHE), compiled.createCachedData());
}

/**
 * Keeps out of the help script every module loaded lazily, the command definitions first: a run
 * that gets that far (it was no help after all) stops with SVC_OUTSIDE_HELP, and bin/svc runs
 * dist/cli.js.
 */
function helpOnly() {
  return {
    name: 'help-only',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import' || isBuiltin(args.path)) return undefined;
        return { path: args.path, namespace: 'outside-help' };
      });
      builder.onLoad({ filter: /.*/, namespace: 'outside-help' }, (args) => ({
        contents: `throw Object.assign(new Error(${JSON.stringify(`not in the help script: ${args.path}`)}), { code: 'SVC_OUTSIDE_HELP' });`,
        loader: 'js',
      }));
    },
  };
}

/** Compiles a CommonJS script as bin/svc does; `run()` runs it once and returns its exports. */
function loadScript(file) {
  const compiled = new Script(Module.wrap(readFileSync(file, 'utf8')), {
    filename: file,
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const run = () => {
    const module = { exports: {} };
    compiled.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
    return module.exports;
  };
  return { compiled, run };
}

/** Streams for a run whose output is only checked: stdout kept, nothing read. */
function quietIO() {
  let printed = '';
  const sink = (keep) =>
    new Writable({
      write(chunk, _encoding, done) {
        if (keep) printed += String(chunk);
        done();
      },
    });
  return {
    stdout: sink(true),
    stderr: sink(false),
    stdin: Readable.from([]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    color: false,
    printed: () => printed,
  };
}

/** Bundles the library entries (`svc`, `svc/emulator`) into `outdir`, without the CLI. */
export async function bundleLibrary(outdir) {
  await build({
    ...common,
    entryPoints: { index: 'src/index.ts', emulator: 'src/emulator-entry.ts' },
    outdir,
    plugins: lighterLibraries(),
  });
}

/**
 * Absolute paths of the modules to tie into the start-up chunk: every module reached from the
 * CLI entry by static imports alone. Each command's definition (loaded by the manifest when a
 * run names it) is an entry of its own: esbuild gives it a chunk, and what several definitions
 * import chunks of their own.
 */
async function startupModules() {
  const { metafile } = await build({
    ...common,
    entryPoints: [CLI_ENTRY],
    outdir: 'unused',
    write: false,
    metafile: true,
  });
  const startup = new Set();
  const visit = (path) => {
    if (startup.has(path)) return;
    startup.add(path);
    for (const edge of metafile.inputs[path]?.imports ?? []) {
      if (edge.kind === 'import-statement' && !edge.external) visit(edge.path);
    }
  };
  visit(CLI_ENTRY);
  startup.delete(CLI_ENTRY);
  // Our own modules only: libraries they import follow them into the same chunk.
  return new Set([...startup].filter((path) => path.startsWith('src/')).map((path) => join(root, path)));
}

const LAZY = 'svc-lazy-require';

/**
 * What the CLI takes of its libraries, lighter than their entry points give it (the single
 * executable's build uses them too):
 * - undici: its index loads fetch, WebSocket, cookies, caches and mocks, about 800 KB the first
 *   request compiled and ran (40 ms); the transport gets Agent, ProxyAgent and request alone
 *   (scripts/undici-core.cjs).
 * - undici's HTTP/2 client, which loads node:http2 (4 ms), loads when a server offers HTTP/2.
 * - commander loads node:child_process (1.5 ms of every start-up) for subcommands that are
 *   separate executables, which svc has none of: it loads on first use.
 * - zod: `import { z } from 'zod'` hands over one object holding all of zod, every locale
 *   included (750 KB); imported as a namespace (leanImports), the bundle keeps the parts the
 *   sources use (about 200 KB), English messages included.
 */
export function lighterLibraries() {
  return [
    {
      name: 'lighter-libraries',
      setup(builder) {
        builder.onResolve({ filter: /^undici$/ }, (args) =>
          args.importer.startsWith(join(root, 'src'))
            ? { path: join(root, 'scripts', 'undici-core.cjs') }
            : undefined,
        );
        builder.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
          args.importer.endsWith(join('undici', 'lib', 'dispatcher', 'client.js'))
            ? {
                path: `./${relative(root, join(dirname(args.importer), 'client-h2.js'))}`,
                namespace: LAZY,
                pluginData: 'function',
              }
            : undefined,
        );
        builder.onResolve({ filter: /^node:child_process$/ }, (args) =>
          args.importer.includes(join('node_modules', 'commander'))
            ? { path: 'node:child_process', namespace: LAZY, pluginData: 'object' }
            : undefined,
        );
        builder.onLoad({ filter: /\.ts$/ }, (args) => {
          if (!args.path.startsWith(join(root, 'src'))) return undefined;
          return { contents: leanImports(readFileSync(args.path, 'utf8')), loader: 'ts' };
        });
        // A module that requires the real one when first used: as a function, or through its members.
        builder.onLoad({ filter: /.*/, namespace: LAZY }, (args) => {
          const real = `require(${JSON.stringify(args.path)})`;
          const contents =
            args.pluginData === 'function'
              ? `module.exports = (...args) => ${real}(...args);`
              : `module.exports = new Proxy({}, { get: (_, name) => ${real}[name] });`;
          return { contents, loader: 'js', resolveDir: root };
        });
      },
    },
  ];
}

/** A source's `import { z } from 'zod'` as `import * as z from 'zod'`: the same names, which esbuild can leave out when unused. */
function leanImports(source) {
  return source.replace(/^import \{ z \} from 'zod';$/gm, "import * as z from 'zod';");
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
        const contents = leanImports(readFileSync(args.path, 'utf8'));
        const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
        return { contents: `${contents}\nimport '${KERNEL}';\n`, loader, resolveDir: dirname(args.path) };
      });
    },
  };
}
