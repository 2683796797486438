import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{packages,services,apps}/*/{src,test}/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // PGlite instances are memory-hungry and the machines have 2 cores.
    maxWorkers: 2,
  },
});
