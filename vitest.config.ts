import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration files each start their own server with its own pool threads: two at a time on two cores.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
