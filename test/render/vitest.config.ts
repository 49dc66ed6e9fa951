// `make render-exports` only: renders every export of the representative jobs to PNG under
// out/exports/ for a person to look at. Not part of the test suite (its files are *.run.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['test/render/*.run.ts'], testTimeout: 600_000, hookTimeout: 120_000, reporters: ['default'] },
});
