import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As in the bundle (scripts/bundle.mjs): no signal listeners of when-exit's over svc's own.
  resolve: { alias: { 'when-exit': new URL('./src/config/exit-hooks.ts', import.meta.url).pathname } },
  test: {
    include: ['test/**/*.test.ts'],
    // Black-box tests run dist/: build it when a source is newer, so no run tests an old build.
    globalSetup: ['test/setup/build.ts'],
    // Black-box tests spawn bin/svc; a 2-core machine needs generous timeouts, not retries.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most behaviour tests wait on the emulator's pacing and deadlines, not the CPU: more files at once than cores.
    maxWorkers: 3,
  },
});
