import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { buildNeeded } from '#build-needed';
import { ensureBuilt } from './dataset.js';
import {
  launchChromium,
  openOnce,
  percentile,
  typeOnce,
  type OpenRun,
  type Target,
  type TypingRun,
} from './editor-browser.js';
import { editorBody, TYPING_BLOCK, typedText } from './editor-post.js';
import { dashboardSizes, formatSizes, type Sizes } from './editor-sizes.js';
import { startEditorSite, type EditorSite } from './editor-site.js';
import { loadAverage, machineInfo } from './proc-stats.js';
import { summarize } from './profile-summary.js';
import { baseEnv, ROOT, run } from './processes.js';

/*
 * `npm run bench:editor`: the writing surface's figures (issue 44; docs/performance.md, "The writing surface").
 * Opens the studio of a post of 1,000 blocks in Chromium until a key typed in block 500 is painted, types into
 * that block key by key measuring input-to-paint (then again under CPU throttling), and reads the JavaScript a
 * browser loads from the build. With --page it measures any page holding an editor instead (the engine
 * comparison's scratch pages), without a server. A measurement, not a test: run it on an idle machine.
 */

const USAGE = `npm run bench:editor -- [--runs N] [--chars N] [--delay MS] [--throttle RATE] [--page URL] [--root SELECTOR]

  --runs N         cold opens of the studio (default 7)
  --chars N        keys typed into block 500 per typing run (default 200)
  --delay MS       ms between a key's down and up, and so between keys (default 80)
  --throttle RATE  CPU throttling of the second typing run, as DevTools' Emulation.setCPUThrottlingRate (default 4;
                   1 skips it)
  --page URL       measure this page instead of the studio: no server, no sizes (it must hold at least 500 blocks)
  --root SELECTOR  the editable root whose element children are the blocks (default
                   .ProseMirror.document[contenteditable=true]; the studio's old textareas are used when none is found)
  --label NAME     names the results file (default: the surface found)
  --profile DIR    after the measured runs, one more open and one more unthrottled typing run under V8's profiler:
                   DIR/open.cpuprofile and DIR/typing.cpuprofile, summarized on stdout
`;

const DEFAULT_ROOT = '.ProseMirror.document[contenteditable=true]';
const log = (line: string) => process.stderr.write(`[bench:editor] ${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);
const ms = (value: number) => value.toFixed(1);

async function commit(): Promise<{ hash: string | null; dirty: boolean | null }> {
  try {
    const hash = (await run('git', ['rev-parse', 'HEAD'], baseEnv({}), { timeoutMs: 10_000 })).trim();
    const status = await run('git', ['status', '--porcelain'], baseEnv({}), { timeoutMs: 10_000 });
    return { hash, dirty: status.trim() !== '' };
  } catch {
    return { hash: null, dirty: null };
  }
}

/** The dashboard is measured as built: a missing or stale build is the caller's to make, not silently ours. */
function checkDashboardBuild(): void {
  const need = buildNeeded(ROOT, 'dashboard');
  if (need === 'missing') throw new Error('dashboard/dist is missing: run `npm run build` first');
  if (need === 'stale')
    throw new Error('dashboard/src has changed since dashboard/dist was built: run `npm run build:dashboard` first');
}

function typingSummary(run: TypingRun) {
  const at = (q: number) => Number(ms(percentile(run.latencies, q)));
  const slow = run.eventTimings.filter((duration) => duration > 0);
  return {
    throttle: run.throttle,
    keys: run.latencies.length,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
    maxMs: at(1),
    eventTiming: { keysAt16MsOrMore: slow.length, p95Ms: percentile(run.eventTimings, 0.95) },
    cpuPerKeyMs: run.cpuPerKeyMs,
    // Each key's figures in the order typed: a slow key here or there is the machine; a rising line is the editor.
    latenciesMs: run.latencies.map((latency) => Number(ms(latency))),
    eventTimingsMs: run.eventTimings,
  };
}

/** One more open and typing run under the profiler (they are not among the figures: profiling slows them). */
async function profiled(
  browser: Browser,
  target: (n: number) => Promise<Target>,
  dir: string,
  { chars, delay }: { chars: number; delay: number },
): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const open = path.join(dir, 'open.cpuprofile');
  const typing = path.join(dir, 'typing.cpuprofile');
  await openOnce(browser, await target(0), open);
  await typeOnce(browser, await target(0), typedText(chars), { delay, throttle: 1, profile: typing });
  for (const [name, file] of [
    ['open', open],
    ['typing', typing],
  ] as const) {
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Parameters<typeof summarize>[0];
    for (const mode of ['self', 'inclusive'] as const) {
      const { busyMs, rows } = summarize(profile, mode);
      out(`profile of ${name} (${mode}, ${ms(busyMs)} ms busy): ${path.relative(ROOT, file)}`);
      for (const [label, share] of rows.slice(0, 25)) out(`  ${share.toFixed(1).padStart(5)} %  ${label}`);
    }
  }
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string' },
      chars: { type: 'string' },
      delay: { type: 'string' },
      throttle: { type: 'string' },
      page: { type: 'string' },
      root: { type: 'string' },
      label: { type: 'string' },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return void process.stdout.write(USAGE);
  const whole = (name: string, value: string | undefined, fallback: number, least: number) => {
    const n = Number(value ?? fallback);
    if (!Number.isInteger(n) || n < least) throw new Error(`--${name} must be a whole number of at least ${least}`);
    return n;
  };
  const runs = whole('runs', values.runs, 7, 1);
  const chars = whole('chars', values.chars, 200, 1);
  const delay = whole('delay', values.delay, 80, 0);
  const throttle = whole('throttle', values.throttle, 4, 1);
  const rootSelector = values.root ?? DEFAULT_ROOT;

  let site: EditorSite | null = null;
  let sizes: Sizes | null = null;
  const browser = await launchChromium();
  try {
    let target: (n: number) => Promise<Target>;
    if (values.page) {
      const url = values.page;
      target = () => Promise.resolve({ url, cookie: null, rootSelector, block: TYPING_BLOCK });
    } else {
      await ensureBuilt(log);
      checkDashboardBuild();
      sizes = dashboardSizes(path.join(ROOT, 'dashboard', 'dist'));
      log('starting quire serve on a new SQLite data dir');
      const started = await startEditorSite();
      site = started;
      const body = editorBody(started.mediaId);
      target = async () => ({
        url: `${started.url}/dashboard/w/${started.workspaceId}/posts/${await started.newPost(body)}/edit`,
        cookie: started.cookie,
        rootSelector,
        block: TYPING_BLOCK,
      });
    }

    const load = { opening: loadAverage(), typing: [0, 0, 0] as [number, number, number] };
    const opens: OpenRun[] = [];
    for (let i = 1; i <= runs; i += 1) {
      const opened = await openOnce(browser, await target(i));
      log(
        `open ${i}/${runs}: ${opened.surface}, ready ${ms(opened.readyMs)} ms, interactive ${ms(opened.interactiveMs)} ms`,
      );
      opens.push(opened);
    }
    const surface = opens[0]!.surface;
    load.typing = loadAverage();
    const typing = [];
    for (const rate of throttle === 1 ? [1] : [1, throttle]) {
      log(`typing ${chars} keys${rate === 1 ? '' : ` at ${rate}× CPU throttling`}`);
      typing.push(typingSummary(await typeOnce(browser, await target(0), typedText(chars), { delay, throttle: rate })));
    }

    const median = (key: 'readyMs' | 'interactiveMs') =>
      Number(
        ms(
          percentile(
            opens.map((o) => o[key]),
            0.5,
          ),
        ),
      );
    const max = (key: 'readyMs' | 'interactiveMs') => Number(ms(Math.max(...opens.map((o) => o[key]))));
    out(
      `surface: ${surface}${surface === 'contenteditable' ? ` (${rootSelector})` : ''}; page: ${values.page ?? 'the studio'}`,
    );
    out(
      `open (${runs} cold pages): surface and block ${TYPING_BLOCK + 1} on the page, median ${median('readyMs')} ms, max ${max('readyMs')} ms`,
    );
    out(`open (${runs} cold pages): interactive, median ${median('interactiveMs')} ms, max ${max('interactiveMs')} ms`);
    for (const t of typing) {
      out(
        `typing ${t.keys} keys${t.throttle === 1 ? '' : ` at ${t.throttle}× CPU throttling`}: input-to-paint p50 ${t.p50Ms} ms, ` +
          `p95 ${t.p95Ms} ms, p99 ${t.p99Ms} ms, max ${t.maxMs} ms; Event Timing: ${t.eventTiming.keysAt16MsOrMore} keys ` +
          `at 16 ms or more, p95 ${t.eventTiming.p95Ms === 0 ? 'under 16' : t.eventTiming.p95Ms} ms` +
          // Throttling makes the renderer's CPU time count the throttler's own: comparable only unthrottled.
          (t.throttle === 1
            ? `; CPU per key ${t.cpuPerKeyMs.renderer} ms in the page's renderer, ${t.cpuPerKeyMs.all} ms in all of Chromium`
            : ''),
      );
    }
    if (sizes) out(formatSizes(sizes));
    if (values.profile) await profiled(browser, target, values.profile, { chars, delay });

    const results = {
      kind: 'editor',
      date: new Date().toISOString(),
      commit: await commit(),
      page: values.page ?? 'studio',
      surface,
      rootSelector,
      settings: { runs, chars, delay, throttle, block: TYPING_BLOCK + 1 },
      machine: machineInfo(),
      loadAverage: load,
      opens,
      typing,
      sizes,
    };
    const dir = path.join(ROOT, 'bench', 'results');
    fs.mkdirSync(dir, { recursive: true });
    const label = (values.label ?? surface).replace(/[^\w.-]+/g, '-');
    const file = path.join(dir, `${results.date.slice(0, 10)}-editor-${label}.json`);
    fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    log(`results: ${path.relative(ROOT, file)}`);
  } finally {
    await browser.close().catch(() => undefined);
    await site?.stop();
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`bench:editor: ${error.message}\n`);
  process.exit(1);
});
