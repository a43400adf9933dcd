import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // The end-to-end suites run the compiled server and CLI; build them once before any test.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Fails a test whose requests got answers the OpenAPI document does not describe.
    setupFiles: ['test/helpers/contract-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
