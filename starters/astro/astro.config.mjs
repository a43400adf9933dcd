// @ts-check
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

// Static pages, built from the synced store; the preview, search, 404 (redirects, broken-link reports) and the
// webhook receiver run on demand in the same Node server. URLs have no trailing slash, as Quire's URL patterns.
export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  outDir: process.env.ASTRO_OUT_DIR ?? './dist',
  trailingSlash: 'never',
  build: { format: 'directory', inlineStylesheets: 'always' },
  compressHTML: true,
  devToolbar: { enabled: false },
});
