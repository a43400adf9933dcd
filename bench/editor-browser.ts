import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { installProbe, type Keystroke, type Probe, type SurfaceKind } from './editor-probe.js';
import { processCpuSeconds } from './proc-stats.js';

/*
 * The two measurements of `npm run bench:editor` in Chromium (Debian's, headless, as test/browser/browser.ts
 * launches it): opening the studio until a keystroke in block 500 is painted, and the input-to-paint latency of
 * each key typed into it. Every measurement has a context of its own: an empty cache and storage, a cold page.
 */

export const CHROMIUM = '/usr/bin/chromium';
const OPEN_TIMEOUT_MS = 120_000;

/** Where to measure: a URL, and for the studio the owner's session cookie. */
export interface Target {
  url: string;
  cookie: { name: string; value: string } | null;
  rootSelector: string;
  /** 0-based index of the block typed into. */
  block: number;
}

export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    timeout: 20_000,
  });
}

type Window = { __editorBench: Probe };
const probe = (page: Page) => page.evaluate(() => (globalThis as unknown as Window).__editorBench);

async function coldPage(browser: Browser, target: Target): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  // The URL's origin: a cookie set for the page's own URL would get its folder as path, out of the API's reach.
  if (target.cookie) await context.addCookies([{ ...target.cookie, url: new URL(target.url).origin }]);
  const page = await context.newPage();
  await page.addInitScript(installProbe, target.rootSelector);
  return { context, page };
}

function waitForSurface(page: Page, target: Target): Promise<SurfaceKind> {
  return page
    .waitForFunction((index) => (globalThis as unknown as Window).__editorBench.ready(index), target.block, {
      polling: 'raf',
      timeout: OPEN_TIMEOUT_MS,
    })
    .then((handle) => handle.jsonValue() as Promise<SurfaceKind>);
}

function waitForKeys(page: Page, count: number, timeout: number): Promise<unknown> {
  return page.waitForFunction(
    (n) => {
      const { keys } = (globalThis as unknown as Window).__editorBench;
      return keys.length >= n && keys.every((key) => key.end !== null);
    },
    count,
    { timeout },
  );
}

async function place(page: Page, target: Target): Promise<string> {
  const text = await page.evaluate(
    (index) => (globalThis as unknown as Window).__editorBench.place(index),
    target.block,
  );
  // The editor learns of the new selection from a selectionchange event, a task of its own.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
  return text;
}

async function expectTyped(page: Page, target: Target, before: string, typed: string): Promise<void> {
  const after = await page.evaluate(
    (index) => (globalThis as unknown as Window).__editorBench.text(index),
    target.block,
  );
  if (after !== before + typed) {
    throw new Error(
      `block ${target.block + 1} does not end with what was typed: …${JSON.stringify(after.slice(-80))}, ` +
        `expected …${JSON.stringify((before + typed).slice(-80))}`,
    );
  }
}

export interface OpenRun {
  surface: SurfaceKind;
  /** Navigation start to the surface and block 500 on the page, ms. */
  readyMs: number;
  /** Navigation start to the frame that shows a key typed at the end of block 500, ms. */
  interactiveMs: number;
}

/**
 * Navigation start (the document's time origin) to "interactive": the surface and block `target.block` are on
 * the page (checked every animation frame), the caret is put at its end, one key is typed there, and the frame
 * that shows it is painted. The round trips to the browser between those steps count too: a writer's key could
 * not land sooner.
 */
export async function openOnce(browser: Browser, target: Target, profile?: string): Promise<OpenRun> {
  const { context, page } = await coldPage(browser, target);
  try {
    const profiler = profile ? await startProfiler(context, page) : null;
    await page.goto(target.url, { waitUntil: 'commit' });
    const surface = await waitForSurface(page, target);
    const before = await place(page, target);
    await page.keyboard.type('x');
    await waitForKeys(page, 1, OPEN_TIMEOUT_MS);
    await expectTyped(page, target, before, 'x');
    if (profiler) await stopProfiler(profiler, profile!);
    const { readyAt, keys } = await probe(page);
    return { surface, readyMs: readyAt!, interactiveMs: keys[0]!.end! };
  } finally {
    await context.close();
  }
}

export interface TypingRun {
  surface: SurfaceKind;
  throttle: number;
  /** Keydown to the frame after the key's last input event, ms, in the order typed. */
  latencies: number[];
  /** Per key, the longest Event Timing duration of its events (0: none reached 16 ms). */
  eventTimings: number[];
  /** CPU time Chromium's processes spent while the keys were typed, per key, ms: the page's renderer, and all. */
  cpuPerKeyMs: { renderer: number; all: number };
}

type ProcessTimes = Map<number, { renderer: boolean; cpuSeconds: number }>;

/**
 * CPU seconds so far of each Chromium process this benchmark started (a renderer is one with --type=renderer).
 * Unlike the latencies, CPU time does not grow when other programs share the machine: the figure to compare when
 * it is busy. From /proc, not CDP: after SystemInfo.getProcessInfo the keys typed next went nowhere.
 */
function processTimes(): ProcessTimes {
  const root = process.pid;
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const under = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at))
      if (at === root) return true;
    return false;
  };
  const times: ProcessTimes = new Map();
  for (const pid of parents.keys()) {
    if (!under(pid)) continue;
    const cpuSeconds = processCpuSeconds(pid);
    if (cpuSeconds === null) continue;
    let command = '';
    try {
      command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (command.includes('chromium')) times.set(pid, { renderer: command.includes('--type=renderer'), cpuSeconds });
  }
  return times;
}

/** CPU ms spent between two readings, per key: by the busiest renderer (the page's), and by every process. */
function cpuPerKey(before: ProcessTimes, after: ProcessTimes, keys: number): { renderer: number; all: number } {
  let renderer = 0;
  let all = 0;
  for (const [pid, now] of after) {
    const spent = now.cpuSeconds - (before.get(pid)?.cpuSeconds ?? 0);
    all += spent;
    if (now.renderer) renderer = Math.max(renderer, spent);
  }
  const perKey = (seconds: number) => Number(((seconds * 1000) / keys).toFixed(2));
  return { renderer: perKey(renderer), all: perKey(all) };
}

/** Types `text` at the end of block `target.block`, `delay` ms between key down and key up, as one measurement. */
export async function typeOnce(
  browser: Browser,
  target: Target,
  text: string,
  { delay, throttle, profile }: { delay: number; throttle: number; profile?: string },
): Promise<TypingRun> {
  const { context, page } = await coldPage(browser, target);
  try {
    await page.goto(target.url, { waitUntil: 'load' });
    const surface = await waitForSurface(page, target);
    // What the studio loads after the body (other queries, images) settles first: it is not typing's cost.
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    await page.waitForTimeout(500);
    const before = await place(page, target);
    await page.evaluate(() => (globalThis as unknown as Window).__editorBench.reset());
    const cdp = await context.newCDPSession(page);
    if (throttle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    const profiler = profile ? await startProfiler(context, page) : null;
    const cpuBefore = processTimes();
    await page.keyboard.type(text, { delay });
    await waitForKeys(page, text.length, 60_000);
    const cpuAfter = processTimes();
    if (profiler) await stopProfiler(profiler, profile!);
    if (throttle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await expectTyped(page, target, before, text);
    const { keys, slowEvents } = await probe(page);
    if (keys.length !== text.length) throw new Error(`${text.length} keys typed, ${keys.length} keydowns seen`);
    return {
      surface,
      throttle,
      latencies: keys.map((key) => key.end! - key.start),
      eventTimings: perKey(keys, slowEvents),
      cpuPerKeyMs: cpuPerKey(cpuBefore, cpuAfter, text.length),
    };
  } finally {
    await context.close();
  }
}

type Cdp = Awaited<ReturnType<BrowserContext['newCDPSession']>>;

/** V8's sampling profiler in the page's renderer, for `--profile`: what a measured run spent its time on. */
async function startProfiler(context: BrowserContext, page: Page): Promise<Cdp> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return cdp;
}

async function stopProfiler(cdp: Cdp, file: string): Promise<void> {
  const { profile } = await cdp.send('Profiler.stop');
  fs.writeFileSync(file, JSON.stringify(profile));
}

/** Each Event Timing entry belongs to the last keystroke that began at or before it. */
function perKey(keys: Keystroke[], entries: Probe['slowEvents']): number[] {
  const longest = keys.map(() => 0);
  for (const entry of entries) {
    let owner = -1;
    keys.forEach((key, index) => {
      if (key.start <= entry.startTime + 0.5) owner = index;
    });
    if (owner >= 0) longest[owner] = Math.max(longest[owner]!, entry.duration);
  }
  return longest;
}

/** Nearest-rank percentile of `values` (0 < q ≤ 1). */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}
