import { PassThrough } from 'node:stream';
import type { ImportRunOptions } from './import-run.js';
import type { ImportLine } from './imports.schemas.js';

type Progress = NonNullable<ImportRunOptions['progress']>;

/** Progress lines a second at most: enough for a bar to move smoothly, few enough to cost nothing. */
const PROGRESS_INTERVAL_MS = 100;

export interface ImportLines {
  /** The answer's body: one JSON object a line. */
  stream: PassThrough;
  send(line: ImportLine): void;
  end(): void;
}

/**
 * The NDJSON body of an import's answer. Once the client has gone the lines go nowhere: the import itself
 * carries on to its end (each item is written whole, and a second run resumes where this one stopped).
 */
export function importLines(): ImportLines {
  const stream = new PassThrough();
  // Writing after the client left destroyed the stream must not become an unhandled 'error'.
  stream.on('error', () => {});
  const open = () => !stream.destroyed && !stream.writableEnded;
  return {
    stream,
    send(line) {
      if (open()) stream.write(`${JSON.stringify(line)}\n`);
    },
    end() {
      if (open()) stream.end();
    },
  };
}

/**
 * The runner's Progress as progress lines: the first and the last count always, the ones between at most every
 * `intervalMs`. The runner counts posts and pages; `total` is null when the reader cannot tell without a full read.
 */
export function progressLines(
  send: (line: ImportLine) => void,
  clock: () => number = () => performance.now(),
  intervalMs = PROGRESS_INTERVAL_MS,
): Progress {
  let total: number | null = null;
  let done = 0;
  let sent = -1;
  let sentAt = 0;
  let active = false;
  const flush = () => {
    sent = done;
    sentAt = clock();
    send({ type: 'progress', done, total });
  };
  return {
    start(_label, stepTotal) {
      total = stepTotal;
      done = 0;
      active = true;
      flush();
    },
    update(count) {
      if (!active) return;
      done = count;
      if (clock() - sentAt >= intervalMs) flush();
    },
    end() {
      if (active && sent !== done) flush();
      active = false;
    },
    abandon() {
      active = false;
    },
  };
}
