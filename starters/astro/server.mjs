// @ts-check
import http from 'node:http';
import compression from 'compression';

/**
 * `npm start`: the built site, static pages and on-demand routes alike, compressed (gzip or Brotli, as the browser
 * asks) — Astro's own Node server sends everything as it is. PORT and HOST as Astro's (default localhost:4321).
 */
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const { handler } = await import('./dist/server/entry.mjs');

const compress = compression();
const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? 'localhost';
http
  .createServer((request, response) => compress(request, response, () => handler(request, response)))
  .listen(port, host, () => console.log(`The site is on http://${host}:${port}`));
