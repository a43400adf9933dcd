/**
 * Progress of long work (seed, export, import, backup, restore, migrate-to): the command line shows it as a bar
 * or as lines (operate/progress.ts), the dashboard's import streams it; the work only reports how far it is.
 */
export interface Progress {
  /**
   * Begins a step: `total` units of `unit` (null when unknown), `label` saying what is done. The unit `bytes`
   * is shown in B, kB, MB or GB by size, so a file smaller than a megabyte does not read as 0 MB.
   */
  start(label: string, total: number | null, unit: string): void;
  /** How many units of the current step are done. */
  update(done: number): void;
  /** Ends the current step: its last line stays, the bar is cleared. */
  end(): void;
  /** Gives up the current step after a failure: the bar is cleared and nothing more is said. */
  abandon(): void;
}

/** Progress nobody watches. */
export const silentProgress: Progress = { start() {}, update() {}, end() {}, abandon() {} };
