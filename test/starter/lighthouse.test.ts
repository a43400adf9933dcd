import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../helpers/services.js';
import { CATEGORIES, formatLighthouse, lighthouseScores } from './lighthouse.js';

/*
 * The Lighthouse harness on two pages served over loopback: one the starter's pages should look like, which
 * must score 0.95 or more everywhere, and one with the faults Lighthouse must name. The good page takes the
 * median of three mobile runs (lighthouse.ts, `runs`: the performance score varies with the machine's load);
 * the faulty one a single desktop run, since the audits it fails do not vary. Each run starts its own Chrome.
 * Like the starter's Lighthouse suite, this file runs after all others, alone (vitest.config.ts).
 */

const suite = services.chromium ? describe : describe.skip;
const SKIPPED = services.chromium ? '' : ' (SKIPPED: /usr/bin/chromium is absent; bash .ci/run installs it)';

const GOOD = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sourdough at home</title>
<meta name="description" content="How to keep a sourdough starter alive and bake with it every week.">
<link rel="icon" href="data:,">
<style>body { font: 1.1rem/1.5 system-ui, sans-serif; max-width: 40rem; margin: 0 auto; padding: 1rem; }</style>
</head>
<body>
<header><a href="/">Engines Weekly</a></header>
<main>
<h1>Sourdough at home</h1>
<p>Feed the starter once a day and keep it at room temperature. Bake when it doubles in four hours.</p>
</main>
</body>
</html>
`;

const GREY_PIXEL =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" width="40" height="40"%3E%3Crect width="40" height="40" fill="%23888"/%3E%3C/svg%3E';

/** No lang, no meta description, an image without alt, light grey text on white. */
const BAD = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sourdough at home</title>
<link rel="icon" href="data:,">
</head>
<body>
<main>
<h1>Sourdough at home</h1>
<img src='${GREY_PIXEL}' width="40" height="40">
<p style="color: #d0d0d0; background: #fff">Feed the starter once a day.</p>
</main>
</body>
</html>
`;

suite(`Lighthouse over loopback${SKIPPED}`, () => {
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const page = { '/good/': GOOD, '/bad/': BAD }[request.url ?? ''];
      response.writeHead(page ? 200 : 404, { 'content-type': `text/${page ? 'html' : 'plain'}; charset=utf-8` });
      response.end(page ?? 'Not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it(
    'scores a lean, accessible page 0.95 or more in all four categories (mobile preset)',
    { timeout: 200_000 },
    async () => {
      const result = await lighthouseScores(`${origin}/good/`, { runs: 3, timeoutMs: 60_000 });
      for (const category of CATEGORIES)
        expect(result.scores[category], formatLighthouse(result)).toBeGreaterThanOrEqual(0.95);
    },
  );

  it('names the audits a faulty page fails (desktop preset)', { timeout: 90_000 }, async () => {
    const result = await lighthouseScores(`${origin}/bad/`, { formFactor: 'desktop', timeoutMs: 60_000 });
    const message = formatLighthouse(result);
    expect(result.formFactor).toBe('desktop');
    const failed = (category: keyof typeof result.failing) => result.failing[category].map((audit) => audit.id);
    expect(failed('accessibility'), message).toEqual(
      expect.arrayContaining(['html-has-lang', 'image-alt', 'color-contrast']),
    );
    expect(failed('seo'), message).toContain('meta-description');
    expect(result.scores.accessibility, message).toBeLessThan(0.95);
    const contrast = result.failing.accessibility.find((audit) => audit.id === 'color-contrast');
    expect(contrast?.title, message).toMatch(/contrast/i);
    expect(message).toMatch(/accessibility: image-alt \(.+\)/);
  });
});
