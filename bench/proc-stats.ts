import fs from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/*
 * What the kernel tells about a process and the machine, from /proc (Linux only; elsewhere the
 * figures are null). CPU times are in clock ticks of 1/100 s, the USER_HZ of every Linux port.
 */
const TICK_SECONDS = 0.01;
const POLL_MS = 100;

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** utime + stime of every thread of the process, in seconds. */
export function processCpuSeconds(pid: number): number | null {
  try {
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_SECONDS;
  } catch {
    return null;
  }
}

/** CPU seconds the whole machine spent busy (everything but idle and iowait), all cores together. */
function machineBusySeconds(): number | null {
  try {
    const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
    return (user + nice + system + irq + softirq + steal) * TICK_SECONDS;
  } catch {
    return null;
  }
}

/**
 * Resolves once the process has used at most one clock tick of CPU in each of two 100 ms windows
 * (or after `maxMs`): a warm-up ends with requests in flight that the server still works through.
 */
export async function waitUntilIdle(pid: number, maxMs = 20_000): Promise<void> {
  const deadline = performance.now() + maxMs;
  let quiet = 0;
  let last = processCpuSeconds(pid);
  while (last !== null && quiet < 2 && performance.now() < deadline) {
    await sleep(POLL_MS);
    const now = processCpuSeconds(pid);
    quiet = now !== null && now - last <= TICK_SECONDS + 1e-9 ? quiet + 1 : 0;
    last = now;
  }
}

export interface UsageReport {
  seconds: number;
  /** The highest VmRSS seen while polling every 100 ms, in MB (10^6 bytes). */
  peakRssMb: number | null;
  /** VmHWM at the end: the process's high-water mark since it started, in MB. */
  hwmMb: number | null;
  /** CPU seconds of the watched process during the window. */
  cpuSeconds: number | null;
  /** CPU seconds of the other processes of the system under test (PostgreSQL's backends) during the window. */
  alsoOursCpuSeconds: number;
  /** Busy CPU of the machine not spent by the watched processes nor by this one, as a share of one core (%). */
  otherCpuPercent: number | null;
}

const mb = (kb: number | null) => (kb === null ? null : Math.round(kb / 100) / 10);

/**
 * Watches one process over a window: peak RSS by polling, its CPU time, and how busy the rest of the
 * machine was (other engineers' tests, say), which would make the figures of that window unreliable.
 * `alsoOurs` are processes of the system under test whose CPU is not "other" either: PostgreSQL's
 * backends serving the server's connections.
 */
export class UsageWindow {
  readonly #pid: number;
  readonly #alsoOurs: number[];
  readonly #timer: NodeJS.Timeout;
  readonly #started = performance.now();
  readonly #cpu0: number | null;
  readonly #ours0: number;
  readonly #busy0: number | null;
  readonly #self0 = process.cpuUsage();
  #peakKb: number | null = null;

  constructor(pid: number, alsoOurs: number[] = []) {
    this.#pid = pid;
    this.#alsoOurs = alsoOurs;
    this.#cpu0 = processCpuSeconds(pid);
    this.#ours0 = this.#oursSeconds();
    this.#busy0 = machineBusySeconds();
    this.#poll();
    this.#timer = setInterval(() => this.#poll(), POLL_MS);
  }

  #oursSeconds(): number {
    return this.#alsoOurs.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
  }

  #poll(): void {
    const kb = statusKb(this.#pid, 'VmRSS');
    if (kb !== null && (this.#peakKb === null || kb > this.#peakKb)) this.#peakKb = kb;
  }

  end(): UsageReport {
    this.#poll();
    clearInterval(this.#timer);
    const seconds = (performance.now() - this.#started) / 1000;
    const cpu1 = processCpuSeconds(this.#pid);
    const busy1 = machineBusySeconds();
    const self = process.cpuUsage(this.#self0);
    const cpuSeconds = cpu1 === null || this.#cpu0 === null ? null : cpu1 - this.#cpu0;
    const alsoOursCpuSeconds = Math.max(0, this.#oursSeconds() - this.#ours0);
    let otherCpuPercent: number | null = null;
    if (cpuSeconds !== null && busy1 !== null && this.#busy0 !== null) {
      const ours = cpuSeconds + (self.user + self.system) / 1e6 + alsoOursCpuSeconds;
      otherCpuPercent = Math.max(0, Math.round(((busy1 - this.#busy0 - ours) / seconds) * 100));
    }
    return {
      seconds,
      peakRssMb: mb(this.#peakKb),
      hwmMb: mb(statusKb(this.#pid, 'VmHWM')),
      cpuSeconds,
      alsoOursCpuSeconds,
      otherCpuPercent,
    };
  }
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    platform: `${os.platform()} ${os.release()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1e8) / 10,
    node: process.version,
  };
}

export function loadAverage(): [number, number, number] {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return [one, five, fifteen].map((value) => Math.round(value * 100) / 100) as [number, number, number];
}
