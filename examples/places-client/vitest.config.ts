import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Cairn's first start builds its template database (seconds to a minute on a loaded machine).
    hookTimeout: 600_000,
    testTimeout: 120_000,
  },
});
