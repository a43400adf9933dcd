import { silentProgress, type Progress } from '../shared/progress.js';

export { silentProgress, type Progress } from '../shared/progress.js';

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_INTERVAL_MS = 100;
const LINE_INTERVAL_MS = 5_000;

/** Whole numbers with separators; a small fraction (megabytes of a small file) keeps one decimal. */
const number = (value: number) =>
  Number.isInteger(value) || value >= 10
    ? Math.round(value).toLocaleString('en-US')
    : value.toLocaleString('en-US', { maximumFractionDigits: 1 });

const BYTE_UNITS: Array<[string, number]> = [
  ['GB', 1e9],
  ['MB', 1e6],
  ['kB', 1e3],
  ['B', 1],
];

/** The decimal unit a byte count reads best in. */
function byteUnit(bytes: number): [string, number] {
  return BYTE_UNITS.find(([, scale]) => bytes >= scale) ?? BYTE_UNITS.at(-1)!;
}

/** An amount and its unit: bytes scaled to `scale` (the total's unit, so that done and total compare). */
function amount(value: number, unit: string, scale = byteUnit(value)): string {
  return unit === 'bytes' ? `${number(value / scale[1])} ${scale[0]}` : `${number(value)} ${unit}`;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 120
    ? `${minutes} min ${Math.round(seconds % 60)} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

interface Step {
  label: string;
  total: number | null;
  unit: string;
  started: number;
  done: number;
  shown: number;
}

/** What is said about a step: counts, share, rate and time left (or taken, once it ends). */
function describe(step: Step, now: number, ended: boolean): { share: number | null; text: string } {
  const seconds = Math.max((now - step.started) / 1000, 1e-3);
  const rate = step.done / seconds;
  const share = step.total ? Math.min(1, step.done / step.total) : null;
  const scale = byteUnit(step.total ?? step.done);
  const count =
    step.total === null
      ? amount(step.done, step.unit)
      : step.unit === 'bytes'
        ? `${number(step.done / scale[1])}/${amount(step.total, step.unit, scale)}`
        : `${number(step.done)}/${number(step.total)} ${step.unit}`;
  const time = ended
    ? `in ${duration(seconds)}`
    : step.total === null || rate === 0
      ? `${duration(seconds)} so far`
      : `${duration((step.total - step.done) / rate)} left`;
  const percent = share === null ? '' : ` (${Math.floor(share * 100)}%)`;
  return { share, text: `${count}${percent}, ${amount(rate, step.unit)}/s, ${time}` };
}

/** A progress display on `output`; `clock` is for tests. */
export function createProgress(output: ProgressOutput, clock: () => number = () => performance.now()): Progress {
  const tty = output.isTTY === true;
  let step: Step | null = null;

  const draw = (current: Step, now: number) => {
    const { share, text } = describe(current, now, false);
    if (!tty) {
      output.write(`${current.label}: ${text}\n`);
      return;
    }
    const width = Math.max(10, Math.min(30, (output.columns ?? 80) - 70));
    const filled = share === null ? 0 : Math.round(share * width);
    const bar = share === null ? '' : ` [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
    output.write(`\r\x1b[K${current.label}${bar} ${text}`);
  };

  return {
    start(label, total, unit) {
      if (step) this.end();
      step = { label, total, unit, started: clock(), done: 0, shown: clock() };
      if (tty) draw(step, step.started);
    },
    update(done) {
      if (!step) return;
      step.done = done;
      const now = clock();
      if (now - step.shown < (tty ? BAR_INTERVAL_MS : LINE_INTERVAL_MS)) return;
      step.shown = now;
      draw(step, now);
    },
    end() {
      if (!step) return;
      const { text } = describe(step, clock(), true);
      output.write(`${tty ? '\r\x1b[K' : ''}${step.label}: ${text}\n`);
      step = null;
    },
    abandon() {
      if (step && tty) output.write('\r\x1b[K');
      step = null;
    },
  };
}

/** The progress a command shows: none with --json, else on stdout, as a bar on a terminal. */
export function commandProgress(json: boolean, output: ProgressOutput = process.stdout): Progress {
  return json ? silentProgress : createProgress(output);
}
