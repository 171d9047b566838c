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
    // Most behaviour tests wait on the emulator's pacing and deadlines, not the CPU: more files at once than cores.
    maxWorkers: 3,
    projects: [
      ...Object.entries(LANES).map(([name, include]) => ({
        extends: true as const,
        // Pure tests share one module graph per worker: the lane's cost is its tests, not re-importing src/ per file.
        test: { name, include: [...include], ...(name === 'unit' ? { isolate: false } : {}) },
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
