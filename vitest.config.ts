import { defineConfig } from 'vitest/config';

/** Lanes: `npm run test:unit` is the inner loop; `npm test` runs them all. */
const LANES = {
  // Pure parts and flag parsing, mirroring src/: seconds.
  unit: ['test/unit/**/*.test.ts'],
  // The emulator driven over HTTP.
  emulator: ['test/emulator/**/*.test.ts'],
  // A command's behaviour, in-process through main against the emulator.
  commands: ['test/commands/**/*.test.ts'],
} as const;

export default defineConfig({
  // As in the bundle (scripts/bundle.mjs): no signal listeners of when-exit's over svc's own.
  resolve: { alias: { 'when-exit': new URL('./src/config/exit-hooks.ts', import.meta.url).pathname } },
  test: {
    // Black-box tests run dist/: build it when a source is newer, so no run tests an old build.
    globalSetup: ['test/setup/build.ts'],
    // Temporary directories made outside a test are removed after its file (test/helpers/temp-dir.ts).
    setupFiles: ['test/setup/temp-dirs.ts'],
    // Bounds only a hang reaches: a 2-core machine running two suites is slow, not hung.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    experimental: { fsModuleCache: true },
    // Most behaviour tests wait on the emulator's pacing and deadlines, not the CPU: more files at once than cores.
    maxWorkers: 3,
    // A worker runs file after file in one module graph: src/ and the emulator are imported once per
    // worker, not once per file (half a second of CPU each: a third of the suite's CPU on 2 cores).
    // Tests share no module state that way: none mocks a module, stubs a global or sets process.env.
    isolate: false,
    projects: [
      ...Object.entries(LANES).map(([name, include]) => ({
        extends: true as const,
        test: { name, include: [...include] },
      })),
      {
        extends: true,
        // Everything else: processes, terminals, signals, install, and the cross-cutting suites by theme.
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: Object.values(LANES).flat(),
        },
      },
    ],
  },
});
