import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/sequencer.js';

/**
 * Lanes: `npm run test:unit` is the inner loop; `npm test` runs them all. Vitest runs one lane
 * after another (a worker runs one lane's files, file after file), each with its own workers:
 * the CPU-bound lanes as many as cores and a little more, the waiting one more, so its waits on
 * pacing, deadlines, npm and Redis overlap with the CPU work of its other files.
 */
const LANES = {
  // Pure parts and flag parsing, mirroring src/: seconds.
  unit: { include: ['test/unit/**/*.test.ts'], workers: 3 },
  // A command's behaviour, in-process through main against the emulator.
  commands: { include: ['test/commands/**/*.test.ts'], workers: 3 },
  // Everything else: the emulator over HTTP, processes, terminals, signals, install, and the
  // cross-cutting suites by theme.
  e2e: { include: ['test/**/*.test.ts'], workers: 6 },
} as const;

export default defineConfig({
  // As in the bundle (scripts/bundle.mjs): no signal listeners of when-exit's over svc's own.
  resolve: { alias: { 'when-exit': new URL('./src/config/exit-hooks.ts', import.meta.url).pathname } },
  test: {
    // Black-box tests run dist/: build it when a source is newer, so no run tests an old build.
    globalSetup: ['test/setup/build.ts', 'test/setup/scratch.ts', 'test/setup/host-env.ts'],
    // Temporary directories made outside a test are removed after its file (test/helpers/temp-dir.ts).
    setupFiles: ['test/setup/temp-dirs.ts'],
    // Each lane's longest files first, by the last run's durations (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Bounds only a hang reaches: a 2-core machine running two suites is slow, not hung.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The lanes share one cache of transformed modules (node_modules/.experimental-vitest-cache):
    // each file is transformed once, not once per lane, and not again in the next run.
    experimental: { fsModuleCache: true },
    // A worker runs file after file in one module graph: src/ and the emulator are imported once per
    // worker, not once per file (half a second of CPU each: a third of the suite's CPU on 2 cores).
    // Tests share no module state that way: none mocks a module, stubs a global or sets process.env.
    isolate: false,
    projects: Object.entries(LANES).map(([name, { include, workers }], order) => ({
      extends: true as const,
      test: {
        name,
        include: [...include],
        exclude: [
          ...configDefaults.exclude,
          ...(name === 'e2e' ? [...LANES.unit.include, ...LANES.commands.include] : []),
        ],
        maxWorkers: workers,
        sequence: { groupOrder: order },
      },
    })),
  },
});
