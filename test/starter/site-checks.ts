import fs from 'node:fs';
import path from 'node:path';
import { describeIssue, structuredDataIssues, validateJsonLd } from '../helpers/json-ld.js';
import { attribute, elements, excerpt, parseHtml, textOf, where } from './html.js';
import { brokenInternalLinks, distExists, type Exists } from './links.js';

/*
 * Checks of a built static site, page by page: the HTML as a browser's parser reads it, the links between
 * the pages, and their JSON-LD. The starter's tests run them over its dist directory (checkSite) and assert
 * the report is empty, with formatSiteReport as the assertion's message.
 */

export { brokenInternalLinks, distExists, type BrokenLink, type Exists, type PageSource } from './links.js';

export interface Problem {
  /** The URL path of the page ('' for HTML checked on its own). */
  page: string;
  code: string;
  message: string;
  line?: number;
  col?: number;
}

export interface HtmlFile {
  file: string;
  /** The URL path it is served at: Astro's directory format, `a/index.html` at `/a/`. */
  path: string;
}

/** Every .html file under a built site directory, with the URL path each is served at, sorted by path. */
export function htmlFiles(dir: string): HtmlFile[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((relative) => relative.endsWith('.html') && fs.statSync(path.join(dir, relative)).isFile())
    .map((relative) => {
      const segments = relative.split(path.sep).map(encodeURIComponent);
      if (segments.at(-1) === 'index.html') segments[segments.length - 1] = '';
      return { file: path.join(dir, relative), path: `/${segments.join('/')}` };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The parse errors parse5 reports (the WHATWG tokenizer's, and its doctype checks: a missing or legacy
 * doctype is `missing-doctype` or `non-conforming-doctype`), then a missing `<html lang>`, a missing or
 * empty `<title>` and every repeated id. parse5 reports almost none of the tree builder's errors (a stray
 * end tag, misnested elements): those the browser repairs silently, and so does this check.
 */
export function parseProblems(html: string): Problem[] {
  const { document, errors } = parseHtml(html);
  const problems: Problem[] = errors.map((error) => ({
    page: '',
    code: error.code,
    message: `at "${excerpt(html, error.startOffset)}"`,
    line: error.startLine,
    col: error.startCol,
  }));
  const all = [...elements(document)];
  const root = all.find((element) => element.tagName === 'html');
  if (!root || !attribute(root, 'lang')?.trim())
    problems.push({ page: '', code: 'missing-lang', message: '<html> has no lang', ...where(root) });
  const title = all.find((element) => element.tagName === 'title');
  if (!title || !textOf(title).trim())
    problems.push({ page: '', code: 'missing-title', message: 'no <title>, or an empty one', line: 1, col: 1 });
  const firstLine = new Map<string, number>();
  for (const element of all) {
    const id = attribute(element, 'id');
    if (id === undefined) continue;
    const at = where(element, 'id');
    const first = firstLine.get(id);
    if (first === undefined) firstLine.set(id, at.line);
    else problems.push({ page: '', code: 'duplicate-id', message: `id "${id}" is already on line ${first}`, ...at });
  }
  return problems;
}

const isGraph = (value: unknown) =>
  typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>)['@graph']);

/**
 * Every `<script type="application/ld+json">` of the page, parsed and validated as the JSON-LD tests do
 * (test/helpers/json-ld.ts): a Quire graph with its integrity checks, any other JSON-LD with the
 * structured-data rules alone. A script that is no JSON is an error.
 */
export async function jsonLdProblems(html: string, url: string): Promise<{ errors: Problem[]; warnings: Problem[] }> {
  const found = { errors: [] as Problem[], warnings: [] as Problem[] };
  const scripts = [...elements(parseHtml(html).document)].filter(
    (element) =>
      element.tagName === 'script' && attribute(element, 'type')?.trim().toLowerCase() === 'application/ld+json',
  );
  for (const [index, script] of scripts.entries()) {
    const at = { page: url, ...where(script) };
    let jsonLd: unknown;
    try {
      jsonLd = JSON.parse(textOf(script));
    } catch (error) {
      found.errors.push({ ...at, code: 'json-ld-syntax', message: `script ${index + 1}: ${(error as Error).message}` });
      continue;
    }
    const issues = isGraph(jsonLd) ? await validateJsonLd(jsonLd) : await structuredDataIssues(jsonLd);
    for (const issue of issues) {
      const problem = { ...at, code: 'json-ld', message: `script ${index + 1}: ${describeIssue(issue)}` };
      (issue.severity === 'ERROR' ? found.errors : found.warnings).push(problem);
    }
  }
  return found;
}

export interface SiteReport {
  /** The URL path of every page checked. */
  pages: string[];
  problems: Problem[];
  /** JSON-LD warnings: Google's recommended fields left out; the caller decides whether they matter. */
  warnings: Problem[];
}

export interface SiteOptions {
  /** The site's origin: absolute links to it are internal too. */
  origin?: string;
  /** Whether the site serves a URL path that is no built page; by default, whether `dir` holds it. */
  exists?: Exists;
}

/** Every check over every page of a built site directory. A directory without pages is a problem too. */
export async function checkSite(dir: string, options: SiteOptions = {}): Promise<SiteReport> {
  const pages = htmlFiles(dir).map((file) => ({ path: file.path, html: fs.readFileSync(file.file, 'utf8') }));
  const report: SiteReport = { pages: pages.map((page) => page.path), problems: [], warnings: [] };
  if (pages.length === 0) report.problems.push({ page: '', code: 'no-pages', message: `no .html file under ${dir}` });
  for (const page of pages) {
    report.problems.push(...parseProblems(page.html).map((problem) => ({ ...problem, page: page.path })));
    const jsonLd = await jsonLdProblems(page.html, page.path);
    report.problems.push(...jsonLd.errors);
    report.warnings.push(...jsonLd.warnings);
  }
  const links = await brokenInternalLinks(pages, { exists: options.exists ?? distExists(dir), origin: options.origin });
  report.problems.push(...links);
  const order = (a: Problem, b: Problem) =>
    a.page.localeCompare(b.page) || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);
  report.problems.sort(order);
  report.warnings.sort(order);
  return report;
}

/** One line a problem: page, line:col, code, message. */
export function formatProblems(problems: Problem[]): string {
  return problems
    .map((p) => `  ${p.page || '(page)'}${p.line ? ` ${p.line}:${p.col ?? 1}` : ''}  ${p.code}  ${p.message}`)
    .join('\n');
}

/** The report as an assertion's message: the problems, then the warnings. */
export function formatSiteReport(report: SiteReport): string {
  const lines = [`${report.problems.length} problem(s) in ${report.pages.length} page(s)`];
  if (report.problems.length > 0) lines.push(formatProblems(report.problems));
  if (report.warnings.length > 0) lines.push(`${report.warnings.length} warning(s):`, formatProblems(report.warnings));
  return lines.join('\n');
}
