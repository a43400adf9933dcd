import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(({ command }) => ({
  root,
  // The server serves the built files under /dashboard/; every asset URL has to carry that prefix.
  base: '/dashboard/',
  // The workspace packages are bundled from their sources (package.json "exports"), not from a build of their own.
  resolve: { conditions: ['@quire/source', ...defaultClientConditions] },
  // Vite 7 compiles .tsx with esbuild; the React plugin (fast refresh) would need Vite 8.
  // A build follows NODE_ENV, and the test runner's global setup builds with NODE_ENV=test: without the
  // two overrides below, the browser suites would drive React's development bundle instead of what ships.
  esbuild: { jsx: 'automatic', ...(command === 'build' ? { jsxDev: false } : {}) },
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // A source map would publish the sources next to the app.
    sourcemap: false,
  },
  logLevel: 'warn',
}));
