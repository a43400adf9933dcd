import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenInternalLinks,
  checkSite,
  distExists,
  formatSiteReport,
  htmlFiles,
  jsonLdProblems,
  parseProblems,
  type Exists,
  type Problem,
} from './site-checks.js';

/*
 * The harness the Astro starter's tests run over its build, proved on a small site of its own: good pages it
 * must pass as they are, and pages each broken in one way it must report, each exactly once.
 */

const ORIGIN = 'https://blog.example.com';

interface PageParts {
  lang?: string | null;
  title?: string;
  head?: string;
  body?: string;
}

const page = ({ lang = 'en', title = 'A page', head = '', body = '' }: PageParts = {}) =>
  [
    '<!doctype html>',
    `<html${lang === null ? '' : ` lang="${lang}"`}>`,
    '<head>',
    '<meta charset="utf-8">',
    `<title>${title}</title>`,
    head,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');

const ldScript = (jsonLd: unknown) => `<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>`;

const WEBSITE = {
  '@context': 'https://schema.org',
  '@graph': [{ '@type': 'WebSite', '@id': `${ORIGIN}/#website`, url: `${ORIGIN}/`, name: 'Engines Weekly' }],
};
const POST = {
  '@context': 'https://schema.org',
  '@graph': [
    {
      '@type': 'BlogPosting',
      '@id': `${ORIGIN}/posts/a/#article`,
      url: `${ORIGIN}/posts/a/`,
      headline: 'Sourdough at home',
      datePublished: '2026-01-02T10:00:00Z',
      dateModified: '2026-01-03T10:00:00Z',
      image: `${ORIGIN}/img/cat.png`,
      author: { '@type': 'Person', name: 'Ada Lovelace', url: `${ORIGIN}/authors/ada/` },
    },
  ],
};
/** Google requires a Person's name; headline, dates and image are what it recommends. */
const THIN_POST = { '@context': 'https://schema.org', '@type': 'BlogPosting', author: { '@type': 'Person' } };

/** The line of `html` where `needle` first appears. */
const lineOf = (html: string, needle: string) => html.slice(0, html.indexOf(needle)).split('\n').length;

const GOOD: Record<string, string> = {
  'index.html': page({
    title: 'Engines Weekly',
    head: `<link rel="canonical" href="${ORIGIN}/">\n<link rel="icon" href="data:,">\n${ldScript(WEBSITE)}`,
    body: [
      '<main id="main">',
      '<a href="#main">Skip</a> <a href="#top">Top</a> <a href="#">Here</a>',
      '<a href="posts/a/">A post</a> <a href="/posts/a/#intro">Its intro</a> <a href="/posts/a#intro">Again</a>',
      `<a href="${ORIGIN}/about/">About</a> <a href="https://elsewhere.example/nowhere/">Elsewhere</a>`,
      '<a href="mailto:ada@example.com">Mail</a> <a href="/rss.xml?page=2">Feed</a>',
      '<a href="/preview/some-draft/">A draft, rendered on demand</a>',
      '<img src="/img/cat.png" srcset="/img/cat.png 1x, img/cat@2x.png 2x" alt="A cat">',
      '<template><a href="/only-when-cloned/">Inert</a><p id="main"></p></template>',
      '</main>',
    ].join('\n'),
  }),
  'posts/a/index.html': page({
    title: 'Sourdough at home',
    head: ldScript(POST),
    body: '<h1 id="intro">Sourdough</h1>\n<p><a name="legacy"></a><a href="../../">Home</a> <a href="#legacy">x</a></p>',
  }),
  'about/index.html': page({ title: 'About', body: '<a href="/posts/a/#intro">Our best post</a>' }),
  '404.html': page({ title: 'Not found', body: '<a href="/">Home</a>' }),
};

const BROKEN: Record<string, string> = {
  'broken/parse/index.html': page({ body: '<a href="/"class="home">Home</a>' }),
  'broken/lang/index.html': page({ lang: null }),
  'broken/ids/index.html': page({ body: '<h2 id="dup">One</h2>\n<h2 id="dup">Two</h2>' }),
  'broken/link/index.html': page({ body: '<a href="/posts/missing/">Gone</a>' }),
  'broken/fragment/index.html': page({ body: '<a href="/posts/a/#nowhere">Gone</a>' }),
  'broken/json/index.html': page({
    head: '<script type="application/ld+json">{"@context": "https://schema.org",}</script>',
  }),
  'broken/thin/index.html': page({ head: ldScript(THIN_POST) }),
};

const OTHER_FILES = ['img/cat.png', 'img/cat@2x.png', 'rss.xml', 'robots.txt'];

function writeSite(dir: string, pages: Record<string, string>) {
  for (const [file, html] of Object.entries(pages)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), html);
  }
  for (const file of OTHER_FILES) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), 'x');
  }
}

/** The starter's on-demand routes: whatever is under /preview/ is rendered by its server. */
const onDemand = (dir: string) => (pathname: string) => pathname.startsWith('/preview/') || distExists(dir)(pathname);

const brief = (problems: Problem[]) => problems.map((p) => `${p.page} ${p.line}:${p.col} ${p.code}`);

describe('the starter site checks', () => {
  let root: string;
  let good: string;
  let mixed: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-site-checks-'));
    good = path.join(root, 'good');
    mixed = path.join(root, 'mixed');
    writeSite(good, GOOD);
    writeSite(mixed, { ...GOOD, ...BROKEN });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds every built page at the URL path Astro serves it at', () => {
    fs.mkdirSync(path.join(good, 'tags', 'café'), { recursive: true });
    fs.writeFileSync(path.join(good, 'tags', 'café', 'index.html'), GOOD['about/index.html']!);
    try {
      expect(htmlFiles(good).map((file) => file.path)).toEqual([
        '/',
        '/404.html',
        '/about/',
        '/posts/a/',
        '/tags/caf%C3%A9/',
      ]);
      expect(htmlFiles(good)[0]!.file).toBe(path.join(good, 'index.html'));
    } finally {
      fs.rmSync(path.join(good, 'tags'), { recursive: true });
    }
  });

  it('passes the good pages with nothing to report, not even a JSON-LD warning', async () => {
    const report = await checkSite(good, { origin: ORIGIN, exists: onDemand(good) });
    expect(report.pages).toHaveLength(4);
    expect(report.problems, formatSiteReport(report)).toEqual([]);
    expect(report.warnings, formatSiteReport(report)).toEqual([]);
  });

  it('reports each broken page exactly once, where it breaks', async () => {
    const report = await checkSite(mixed, { origin: ORIGIN, exists: onDemand(mixed) });
    const at = (file: string, needle: string) => lineOf(BROKEN[file]!, needle);
    expect(brief(report.problems), formatSiteReport(report)).toEqual([
      `/broken/fragment/ ${at('broken/fragment/index.html', '<a')}:4 broken-fragment`,
      `/broken/ids/ ${at('broken/ids/index.html', 'Two')}:5 duplicate-id`,
      `/broken/json/ ${at('broken/json/index.html', '<script')}:1 json-ld-syntax`,
      '/broken/lang/ 2:1 missing-lang',
      `/broken/link/ ${at('broken/link/index.html', '<a')}:4 broken-link`,
      `/broken/parse/ ${at('broken/parse/index.html', '<a')}:12 missing-whitespace-between-attributes`,
      `/broken/thin/ ${at('broken/thin/index.html', '<script')}:1 json-ld`,
    ]);
    expect(report.problems.find((p) => p.code === 'json-ld')?.message).toMatch(/Person.*"name"/);
    expect(report.warnings.map((w) => w.message).join('\n')).toMatch(/"headline"[\s\S]*"datePublished"/);
    expect(new Set(report.warnings.map((w) => w.page))).toEqual(new Set(['/broken/thin/']));
    const message = formatSiteReport(report);
    expect(message).toContain('7 problem(s) in 11 page(s)');
    expect(message).toContain(
      '/broken/link/ 9:4  broken-link  href="/posts/missing/": nothing is served at /posts/missing/',
    );
  });

  it('counts a directory without pages as a problem, so an empty build cannot pass', async () => {
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty);
    expect(brief((await checkSite(empty)).problems)).toEqual([' undefined:undefined no-pages']);
  });

  describe('parseProblems', () => {
    it("reports parse5's errors, a missing or legacy doctype among them", () => {
      expect(brief(parseProblems('<html lang="en"><title>x</title>'))).toEqual([' 1:1 missing-doctype']);
      const legacy = '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">\n<html lang="en"><title>x</title>';
      expect(brief(parseProblems(legacy))).toEqual([' 1:1 non-conforming-doctype']);
      const [error] = parseProblems(page({ body: '<p>\n  <!-- a comment --!>\n</p>' }));
      expect(error).toMatchObject({ code: 'incorrectly-closed-comment', line: 10, col: 21 });
      expect(error?.message).toContain('<!-- a comment --!>');
    });

    it('reports a missing or empty lang, a missing or empty title, and every repeated id', () => {
      expect(brief(parseProblems(page({ lang: ' ' })))).toEqual([' 2:1 missing-lang']);
      expect(brief(parseProblems(page({ title: ' ' })))).toEqual([' 1:1 missing-title']);
      const noTitle = page().replace('<title>A page</title>', '');
      expect(brief(parseProblems(noTitle))).toEqual([' 1:1 missing-title']);
      const ids = parseProblems(page({ body: '<a id="x"></a><b id="x"></b>\n<i id="x"></i><p id="y"></p>' }));
      expect(brief(ids)).toEqual([' 9:18 duplicate-id', ' 10:4 duplicate-id']);
      expect(ids[0]?.message).toBe('id "x" is already on line 9');
    });
  });

  describe('brokenInternalLinks', () => {
    const home = (body: string, head = '') => [{ path: '/', html: page({ head, body }) }];
    const codes = async (body: string, exists: Exists = (p) => p === '/img/a.png', head = '') =>
      (await brokenInternalLinks(home(body, head), { exists, origin: ORIGIN })).map((b) => `${b.code} ${b.url}`);

    it('reads every candidate of a srcset, descriptors and commas inside URLs included', async () => {
      const srcset = '/img/a.png 480w, /img/b.png?w=1,2 800w,/img/c.png,  /img/a.png 2x,/img/d.png,/img/a.png';
      expect(await codes(`<img src="/img/a.png" srcset="${srcset}" alt="">`)).toEqual([
        'broken-link /img/b.png?w=1,2',
        'broken-link /img/c.png',
        'broken-link /img/d.png,/img/a.png',
      ]);
    });

    it("asks `exists` about the path alone, and only for internal URLs: relative ones and the site's own", async () => {
      const asked: string[] = [];
      const exists = (pathname: string) => (asked.push(pathname), pathname !== '/c');
      const links = [
        '/a?x=1#y',
        'https://other.example/b',
        'tel:1',
        'https://BLOG.example.com:443/c',
        '//cdn.example/d',
      ];
      const broken = await codes(links.map((href) => `<a href="${href}">x</a>`).join(''), exists);
      expect(asked).toEqual(['/a', '/c']);
      expect(broken).toEqual(['broken-link https://BLOG.example.com:443/c']);
    });

    it('resolves relative URLs from a <base href>, and reports URLs that do not parse', async () => {
      expect(await codes('<img src="a.png" alt="">', undefined, '<base href="/img/">')).toEqual([]);
      expect(await codes('<a href="http://[oops/">x</a>', () => true)).toEqual(['broken-link http://[oops/']);
    });

    it("checks a fragment against the target page's ids and <a name>s, #top and text fragments aside", async () => {
      const body = '<h2 id="caf%C3%A9">x</h2><a name="old"></a><a href="#old">1</a><a href="#top">2</a>';
      expect(await codes(`${body}<a href="#:~:text=x">3</a><a href="#caf%C3%A9">4</a><a href="#new">5</a>`)).toEqual([
        'broken-fragment #new',
      ]);
    });
  });

  describe('jsonLdProblems', () => {
    it('numbers the scripts and parses each on its own', async () => {
      const html = page({ head: `${ldScript(POST)}\n<script type="application/ld+json">[</script>` });
      const { errors, warnings } = await jsonLdProblems(html, '/x/');
      expect(warnings).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ page: '/x/', code: 'json-ld-syntax', line: 7 });
      expect(errors[0]?.message).toMatch(/^script 2: /);
    });

    it("checks a Quire graph's integrity too: a reference must name a node of the graph", async () => {
      const graph = { ...WEBSITE, '@graph': [{ ...WEBSITE['@graph'][0], publisher: { '@id': `${ORIGIN}/#org` } }] };
      const { errors } = await jsonLdProblems(page({ head: ldScript(graph) }), '/');
      expect(errors.map((e) => e.message)).toEqual([expect.stringContaining(`reference ${ORIGIN}/#org to no node`)]);
    });
  });
});
