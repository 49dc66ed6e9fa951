import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Only a hang should time a test out: tests limit their work by effort, and a loaded machine
    // may run them several times slower than an idle one.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Integration files each start their own server with its own pool threads: two at a time on two cores.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
