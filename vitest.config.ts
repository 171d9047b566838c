import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Black-box tests spawn bin/svc; a 2-core machine needs generous timeouts, not retries.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
