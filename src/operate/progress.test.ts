import { describe, expect, it } from 'vitest';
import { commandProgress, createProgress, silentProgress } from './progress.js';

function output(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 120, write: (text: string) => written.push(text) } };
}

describe('command progress', () => {
  it('draws a bar with the count, share, rate and time left on a terminal, redrawn at most every 100 ms', () => {
    let now = 0;
    const { written, stream } = output(true);
    const progress = createProgress(stream, () => now);
    progress.start('export acme', 10_000, 'rows');
    now = 50;
    progress.update(100); // too soon after the last drawing
    now = 2_000;
    progress.update(4_000);
    expect(written).toHaveLength(2);
    expect(written[1]).toBe(
      '\r\x1b[Kexport acme [############------------------] 4,000/10,000 rows (40%), 2,000 rows/s, 3.0 s left',
    );
    now = 5_000;
    progress.update(10_000);
    progress.end();
    expect(written.at(-1)).toBe('\r\x1b[Kexport acme: 10,000/10,000 rows (100%), 2,000 rows/s, in 5.0 s\n');
  });

  it('writes a plain line every 5 s and a last one when stdout is not a terminal', () => {
    let now = 0;
    const { written, stream } = output(false);
    const progress = createProgress(stream, () => now);
    progress.start('seed acme', 1_000, 'posts');
    for (now = 1_000; now <= 11_000; now += 1_000) progress.update(Math.round(now / 12));
    now = 12_000;
    progress.update(1_000);
    progress.end();
    expect(written).toEqual([
      'seed acme: 417/1,000 posts (41%), 83 posts/s, 7.0 s left\n',
      'seed acme: 833/1,000 posts (83%), 83 posts/s, 2.0 s left\n',
      'seed acme: 1,000/1,000 posts (100%), 83 posts/s, in 12 s\n',
    ]);
  });

  it('says how much is done when the total is unknown, and clears the bar of a step given up', () => {
    let now = 0;
    const { written, stream } = output(true);
    const progress = createProgress(stream, () => now);
    progress.start('copy', null, 'MB');
    now = 1_000;
    progress.update(25);
    expect(written.at(-1)).toBe('\r\x1b[Kcopy 25 MB, 25 MB/s, 1.0 s so far');
    progress.abandon();
    expect(written.at(-1)).toBe('\r\x1b[K');
  });

  it('shows bytes in the unit their size reads best in, small files included', () => {
    let now = 0;
    const { written, stream } = output(false);
    const progress = createProgress(stream, () => now);
    progress.start('restore small.tgz', 23_456, 'bytes');
    now = 500;
    progress.update(23_456);
    progress.end();
    progress.start('restore large.tgz', 1_234_567_890, 'bytes');
    now = 5_500;
    progress.update(600_000_000);
    expect(written).toEqual([
      'restore small.tgz: 23/23 kB (100%), 47 kB/s, in 0.5 s\n',
      'restore large.tgz: 0.6/1.2 GB (48%), 120 MB/s, 5.3 s left\n',
    ]);
  });

  it('is silent with --json, whose stdout is the final document alone', () => {
    expect(commandProgress(true)).toBe(silentProgress);
  });
});
