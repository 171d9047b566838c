// Bundles the CLI and the library entry with esbuild. Dependencies are bundled too, so
// start-up reads one file; heavy ones stay in lazily imported chunks (code splitting).
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli/main.ts', index: 'src/index.ts', emulator: 'src/emulator-entry.ts' },
  outdir: 'dist',
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
});
