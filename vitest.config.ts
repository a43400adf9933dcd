import os from 'node:os';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** The suites that must have the machine to themselves (below): the starter's scores and the harness's own. */
const LIGHTHOUSE = ['test/starter/starter-lighthouse.test.ts', 'test/starter/lighthouse.test.ts'];

/** What every test file runs with, whichever project holds it. */
const project = (test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration => ({
  // The workspace packages are tested from their sources (package.json "exports"): no build before a test run.
  // Beside it, Vitest's own conditions: Vite's server ones without `module` (which would pick packages' bundler
  // builds, such as the AWS SDK's dist-es, for Node to load).
  ssr: {
    resolve: {
      conditions: ['@quire/source', ...defaultServerConditions.filter((condition) => condition !== 'module')],
    },
  },
  test: {
    // Fails a test whose requests got answers the OpenAPI document does not describe.
    setupFiles: ['test/helpers/contract-setup.ts'],
    // The AWS SDK warns once per process that its releases from 2027 on need Node 22. That is news for
    // whoever runs Quire with S3 storage on Node 20 (the server keeps it), not for a test run.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    ...test,
  },
});

export default defineConfig({
  test: {
    // The end-to-end suites run the compiled server and CLI; build them once before any test.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Vitest's default is one worker fewer than the cores: one on the two-core machines CI runs on. Most suites
    // wait on a server, a database or a browser, so two files share such a machine well (docs/decisions.md, "Two
    // test files at a time", has the measured times).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    reporters: ['default'],
    projects: [
      project({
        name: 'suites',
        include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
        exclude: [...configDefaults.exclude, ...LIGHTHOUSE],
      }),
      // Lighthouse scores a page as a phone would load it: its simulated slow CPU multiplies whatever else the
      // machine is doing into Total Blocking Time, even for a page without a script. So its files run after
      // every other file, one at a time.
      project({ name: 'lighthouse', include: LIGHTHOUSE, sequence: { groupOrder: 1 }, maxWorkers: 1 }),
    ],
  },
});
