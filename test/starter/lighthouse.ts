import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';

/*
 * Lighthouse over a page the starter serves on loopback, in Debian's Chromium.
 *
 * Throttling is Lighthouse's default, simulated: the page loads at full speed and Lighthouse computes what a
 * throttled load would have taken from what it observed (mobile: a slow 4G network and a CPU four times
 * slower; desktop: the desktop preset's cable-like network and no CPU slowdown). That keeps the slow network
 * in the scores although loopback has none, and keeps them steadier on a busy CI machine than throttling the
 * real load would ('devtools'). 'provided' (no throttling) would score a loopback page as if the network were
 * free.
 *
 * Nothing leaves the machine. This module calls Lighthouse's library, not its CLI: the CLI alone asks about
 * and starts Sentry error reporting and keeps that answer in ~/.config (configstore). Lighthouse fetches what
 * it audits (the page, robots.txt, source maps) through Chrome. Chrome's own background services are off by
 * chrome-launcher's default flags and --disable-background-networking, but Chromium still resolves Google
 * hosts for its sign-in and update services: the host resolver rules make every name but the loopback ones
 * unresolvable, so no lookup leaves either. (What still shows under strace is Chromium's IPv6 probe: a UDP
 * socket connected to a public address, which sends nothing.) Chrome's crash-report settings and dconf cache
 * go to a temporary XDG directory, removed afterwards, instead of the home directory.
 */

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];
export type FormFactor = 'mobile' | 'desktop';

export interface FailingAudit {
  id: string;
  title: string;
  /** What it measured or found ("2.1 s", "3 elements"), or why it could not run. */
  displayValue?: string;
  score: number | null;
}

export interface LighthouseScores {
  url: string;
  formFactor: FormFactor;
  /** 0 to 1; a category Lighthouse could not score is 0. */
  scores: Record<Category, number>;
  /** For each category scored below 1, the audits that cost it; empty for the others. */
  failing: Record<Category, FailingAudit[]>;
  /** Lighthouse's warnings about the run itself (a slow machine, a redirect). */
  runWarnings: string[];
  /**
   * Every audit of the four categories that could not run, with why. Those that weigh in a score are among
   * `failing` too; the others (diagnostics such as render-blocking-resources) only explain less.
   */
  auditErrors: Array<{ id: string; message: string }>;
  /** The performance score of every run, in the order they ran. */
  performanceRuns: number[];
}

export interface LighthouseOptions {
  /** Lighthouse's mobile preset (its default) or its desktop one. */
  formFactor?: FormFactor;
  /** Each run, Chrome's start included; Chrome is killed when it is over. */
  timeoutMs?: number;
  /**
   * How many runs, each in a fresh Chrome; the answer is the run with the median performance score. On a
   * busy machine one run's first layout can take several times its usual time, and the simulated slow CPU
   * multiplies that into Total Blocking Time: Lighthouse's documentation on variability advises the median.
   */
  runs?: number;
  chromePath?: string;
}

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

const SCORED_MODES = new Set(['binary', 'numeric', 'metricSavings']);

function failingAudits(lhr: Result, category: Category): FailingAudit[] {
  return lhr.categories[category]!.auditRefs.flatMap((ref) => {
    const audit = lhr.audits[ref.id]!;
    // An audit that could not run counts as 0 in its category's score, unless its weight is 0.
    const failed =
      (audit.scoreDisplayMode === 'error' && ref.weight > 0) ||
      (SCORED_MODES.has(audit.scoreDisplayMode) && audit.score !== null && audit.score < 1);
    if (!failed) return [];
    const displayValue = audit.displayValue ?? audit.errorMessage;
    return [{ id: audit.id, title: audit.title, score: audit.score, ...(displayValue ? { displayValue } : {}) }];
  });
}

function summarize(lhr: Result, url: string, formFactor: FormFactor): LighthouseScores {
  const scoreOf = (category: Category) => lhr.categories[category]?.score ?? 0;
  const byCategory = <T>(value: (category: Category) => T) =>
    Object.fromEntries(CATEGORIES.map((category) => [category, value(category)])) as Record<Category, T>;
  return {
    url,
    formFactor,
    scores: byCategory(scoreOf),
    failing: byCategory((category) => (scoreOf(category) < 1 ? failingAudits(lhr, category) : [])),
    runWarnings: lhr.runWarnings,
    auditErrors: [...new Set(CATEGORIES.flatMap((c) => (lhr.categories[c]?.auditRefs ?? []).map((ref) => ref.id)))]
      .map((id) => lhr.audits[id]!)
      .filter((audit) => audit.scoreDisplayMode === 'error')
      .map((audit) => ({ id: audit.id, message: audit.errorMessage ?? '' })),
    performanceRuns: [scoreOf('performance')],
  };
}

async function stop(chrome: chromeLauncher.LaunchedChrome): Promise<void> {
  const exited = chrome.process.exitCode !== null || chrome.process.signalCode !== null;
  const closed = exited ? Promise.resolve() : once(chrome.process, 'close');
  chrome.kill();
  await Promise.race([closed, delay(5_000, undefined, { ref: false })]);
}

/** Lighthouse's four scores for one page, and what failed in each category that fell short. */
export async function lighthouseScores(url: string, options: LighthouseOptions = {}): Promise<LighthouseScores> {
  const results: LighthouseScores[] = [];
  for (let run = 0; run < (options.runs ?? 1); run++) results.push(await lighthouseRun(url, options));
  const performance = results.map((result) => result.scores.performance);
  const sorted = [...results].sort((a, b) => a.scores.performance - b.scores.performance);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, performanceRuns: performance };
}

async function lighthouseRun(url: string, options: LighthouseOptions): Promise<LighthouseScores> {
  const { formFactor = 'mobile', timeoutMs = 120_000, chromePath = '/usr/bin/chromium' } = options;
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-lighthouse-'));
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse took over ${timeoutMs} ms on ${url}`)), timeoutMs);
    });
    const launching = chromeLauncher.launch({
      chromePath,
      chromeFlags: CHROME_FLAGS,
      envVars: { ...process.env, XDG_CONFIG_HOME: path.join(xdg, 'config'), XDG_CACHE_HOME: path.join(xdg, 'cache') },
      handleSIGINT: false,
      logLevel: 'silent',
    });
    // A Chrome that comes up after the deadline is killed as soon as it does.
    launching.then((late) => (done ? stop(late) : undefined)).catch(() => undefined);
    chrome = await Promise.race([launching, deadline]);
    const flags: Flags = {
      port: chrome.port,
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      // Lighthouse's defaults are 30 s and 45 s: a loopback page that needs that long is broken anyway.
      maxWaitForFcp: 15_000,
      maxWaitForLoad: 30_000,
      disableFullPageScreenshot: true,
    };
    const running = lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    // Past the deadline Chrome is killed under it, and its rejection is no news.
    running.catch(() => undefined);
    const result = await Promise.race([running, deadline]);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { runtimeError } = result.lhr;
    if (runtimeError)
      throw new Error(`Lighthouse could not audit ${url}: ${runtimeError.code} ${runtimeError.message}`);
    return summarize(result.lhr, url, formFactor);
  } finally {
    done = true;
    clearTimeout(timer);
    if (chrome) await stop(chrome);
    fs.rmSync(xdg, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The scores, then each failing audit, as an assertion's message. */
export function formatLighthouse(result: LighthouseScores): string {
  const scores = CATEGORIES.map((category) => `${category} ${result.scores[category]}`).join(', ');
  const runs =
    result.performanceRuns.length > 1 ? ` (median run; performance ${result.performanceRuns.join(', ')})` : '';
  const lines = [`Lighthouse (${result.formFactor}) ${result.url}: ${scores}${runs}`];
  for (const category of CATEGORIES)
    for (const audit of result.failing[category])
      lines.push(`  ${category}: ${audit.id} (${audit.title})${audit.displayValue ? `: ${audit.displayValue}` : ''}`);
  for (const warning of result.runWarnings) lines.push(`  run warning: ${warning}`);
  if (result.auditErrors.length > 0)
    lines.push(`  could not run: ${result.auditErrors.map((error) => error.id).join(', ')}`);
  return lines.join('\n');
}
