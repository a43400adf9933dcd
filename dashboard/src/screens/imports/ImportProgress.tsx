import type { ImportPhase } from './import-request';

/** Where a run is: the upload's share, then the posts and pages read (a moving bar when their number is unknown). */
export function ImportProgress({ dryRun, phase }: { dryRun: boolean; phase: ImportPhase | null }) {
  const verb = dryRun ? 'Checking' : 'Importing';
  let label: string;
  let now: number | null;
  let max = 100;
  if (phase === null) {
    label = 'Starting…';
    now = 0;
  } else if (phase.kind === 'uploading') {
    now = Math.round(phase.fraction * 100);
    label = `Uploading the file: ${now}%`;
  } else if (phase.total === null) {
    now = null;
    label = `${verb}: ${phase.done.toLocaleString('en-US')} posts and pages so far`;
  } else {
    max = Math.max(phase.total, 1);
    now = Math.min(phase.done, max);
    label = `${verb}: ${phase.done.toLocaleString('en-US')} of ${phase.total.toLocaleString('en-US')} posts and pages`;
  }
  return (
    <section className="panel import-progress" aria-label={`${verb} progress`}>
      <p className="import-progress-label">{label}</p>
      <div
        className="import-bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={now ?? undefined}
        aria-valuetext={label}
        data-indeterminate={now === null || undefined}
      >
        <span style={{ width: now === null ? undefined : `${(now / max) * 100}%` }} />
      </div>
      {!dryRun && (
        <p className="hint">
          Each post goes in whole. If this page is closed, the import still finishes on the server; running it again
          carries on where it stopped.
        </p>
      )}
    </section>
  );
}
